import ssl

import requests


def fetch(url, token):
    r = requests.get(url, headers={"Authorization": token}, verify=False)  # want "Certificate verification is disabled"
    return r.json()


def post(url, body):
    return requests.post(
        url,
        json=body,
        verify=False,  # want "Certificate verification is disabled"
    )


def session(url):
    s = requests.Session()
    return s.get(url, verify=False, timeout=5)  # want "TLS certificate verification disabled"


def context():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # want "Certificate verification is disabled"
    return ctx


# Near misses.
def safe(url, bundle):
    # verify=False would disable checks; do not do that.
    requests.get(url, verify=bundle)
    return requests.get(url, verify=True)
