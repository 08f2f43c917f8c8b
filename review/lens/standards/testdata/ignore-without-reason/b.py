import hashlib

h = hashlib.md5(b"x"), 'want "gives no reason"'  # reviewls:ignore security/weak-crypto
k = "# reviewls:ignore security/weak-crypto"
m = """
# reviewls:ignore security/weak-crypto
"""
n = hashlib.md5(b"x"), 'want "has 1 word"'  # reviewls:ignore security/weak-crypto ok
