import hashlib

from Crypto.Cipher import DES


def hash_password(password):
    return hashlib.md5(password.encode()).hexdigest()  # want "MD5 protects a secret \(password\)"


def make_token(user_id):
    digest = hashlib.sha1(str(user_id).encode())  # want "SHA-1 protects a secret \(token\)"
    return digest.hexdigest()


def encrypt(key, data):
    return DES.new(key, DES.MODE_ECB).encrypt(data)  # want "Broken cipher DES"


# Near misses.
def etag(body):
    return hashlib.md5(body).hexdigest()


def fingerprint_password_file(path):
    return hashlib.md5(open(path, "rb").read(), usedforsecurity=False).hexdigest()
