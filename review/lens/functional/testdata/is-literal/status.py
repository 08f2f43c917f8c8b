# Real shapes: a status string, an exit code, a length, bytes, a literal on
# the left, and the negative form.
import subprocess


def finish(job, data, code):
    if job.status is "done":  # want "`is` compares identity with a literal"
        return
    if code is not 0:  # want "`is not` compares identity"
        raise RuntimeError(code)
    if len(data) is 1024:  # want "`is` compares"
        pass
    if data[:2] is b"\x1f\x8b":  # want "`is` compares"
        pass
    if "admin" is job.role:  # want "`is` compares"
        pass
    ok = [x for x in data if x is -1]  # want "`is` compares"
    return ok


# Near misses: singletons, names, the word "is" in strings and comments.
def near(job, other):
    if job.result is None or job.flag is True or job.more is not False:
        return job is other
    msg = "the job is 1 of 2"  # this is "fine"
    if job.kind is Ellipsis or job.rest is ...:
        return msg
    return isinstance(job, str) and job.is_done
