import base64
import pickle
import marshal
import shelve

import dill


def session(request, sock, cache):
    s = pickle.loads(base64.b64decode(request.cookies["session"]))  # want "Untrusted data deserialized into objects"
    job = pickle.loads(sock.recv(4096))  # want "pickle.loads\(sock.recv"
    fn = dill.loads(request.get_data())  # want "dill.loads"
    code = marshal.loads(payload)  # want "marshal.loads"
    db = shelve.open(request.args["db"])  # want "shelve.open"
    return s, job, fn, code, db


# Near misses: none of these is reported.
def fine(path, data):
    with open(path, "rb") as f:
        model = pickle.load(f)
    cached = pickle.loads(data)
    blob = pickle.dumps({"request": 1})
    other = pickle.loads(cache["body"])
    return model, cached, blob, other
