import os
import shlex
import subprocess
import subprocess as sp
from subprocess import check_output


def build(ref, path, user):
    subprocess.run(f"git log {ref}", shell=True, check=True)  # want "Shell command built from variable input"
    os.system("rm -rf " + path)  # want "os.system\(\) runs"
    out = sp.check_output(  # want "subprocess.check_output"
        "grep %s /etc/passwd" % user,
        shell=True,
    )
    os.popen(path).read()  # want "os.popen"
    subprocess.getoutput(f"ls {path}")  # want "getoutput"
    check_output(["bash", "-c", "tar xf " + path])  # want "check_output"
    return out


# Near misses: none of these is reported.
def fine(ref, path):
    subprocess.run(["git", "log", ref], check=True)
    subprocess.run("git status", shell=True)
    subprocess.run(f"git log {shlex.quote(ref)}", shell=True)
    subprocess.run(ref, shell=False)
    os.system("make clean")
    os.system("echo " "done")
    check_output(["sh", "-c", "echo done"])
    text = "os.system(path)"
    return model.system(path)
