import hashlib

h = hashlib.md5(b"x"), 'want "gives no reason"'  # reviewls:ignore security/weak-crypto
