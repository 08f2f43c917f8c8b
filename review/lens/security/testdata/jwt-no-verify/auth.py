# Real shapes: an id token decoded without its signature, the same through
# a wrapper's keyword, PyJWT 1's verify=False and "none" allowed; near
# misses after.
import jwt


def user(id_token):
    claims = jwt.decode(id_token, options={"verify_signature": False})  # want "accepts the token without checking its signature"
    return _verify_and_decode(app, id_token, verify_signature=False)  # want "verify_signature=False"


def legacy(token):
    return jwt.decode(token, verify=False)  # want "verify=False"


def any_alg(token, key):
    return jwt.decode(token, key, algorithms=["HS256", "none"])  # want "algorithms"


def near(token, key):
    header = jwt.get_unverified_header(token)
    msg = "never pass verify_signature=False"  # verify_signature=False in a comment
    return jwt.decode(token, key, algorithms=["RS256"], options={"verify_exp": True}), header, msg
