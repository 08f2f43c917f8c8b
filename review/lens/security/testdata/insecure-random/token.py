import random
import string


def make_password(length=16):
    return "".join(random.choice(string.ascii_letters) for _ in range(length))  # want "makes a password"


def new_session():
    session_id = random.getrandbits(128)  # want "session id"
    return session_id


# Near misses.
def jitter(base):
    return base + random.uniform(0, 1)


def sample_tokens(tokens):
    return random.sample(tokens, 3)


def secure_token():
    return random.SystemRandom().choice(string.ascii_letters)
