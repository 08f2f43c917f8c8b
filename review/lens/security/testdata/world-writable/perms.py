import os
import stat
from pathlib import Path


def setup(path):
    os.chmod(path, 0o777)  # want "os.chmod with mode 0o777"
    Path(path).chmod(0o666)  # want "chmod with mode 0o666"
    os.makedirs(path, mode=0o776, exist_ok=True)  # want "os.makedirs creates"
    os.chmod(path, stat.S_IRWXU | stat.S_IWOTH)  # want "S_IWOTH"
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o646)  # want "os.open"
    return fd


# Near misses: none of these is reported.
def fine(path):
    os.chmod(path, 0o755)
    Path(path).mkdir(parents=True, exist_ok=True)
    os.makedirs(path, 0o700)
    os.makedirs(path, mode=0o777, exist_ok=True)
    os.open(path, os.O_CREAT, 0o666)
    with open(path, "w") as f:
        f.write("chmod 777")
    os.chmod(path, stat.S_IRWXU)
