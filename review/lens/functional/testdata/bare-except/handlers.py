import logging

log = logging.getLogger(__name__)


def load(path):
    try:
        return open(path).read()
    except:  # want "Bare except"
        return None


def save(record):
    try:
        record.save()
    except Exception:  # want "Broad exception silently swallowed"
        pass


def close(conn):
    try:
        conn.close()
    except BaseException as err:  # want "Broad exception silently swallowed"
        ...


def flush(buf):
    try:
        buf.flush()
    except: pass  # want "Bare except"


def grouped(x):
    try:
        x.run()
    except (ValueError, Exception):  # want "Broad exception silently swallowed"
        # Nothing to do.
        pass


# Near misses: none of these is reported.


def cleanup(tmp):
    try:
        tmp.write()
    except:
        tmp.remove()
        raise


def narrow(d, key):
    try:
        del d[key]
    except KeyError:
        pass


def logged(job):
    try:
        job.run()
    except Exception:
        log.exception("job %s failed", job.id)


def reraised(job):
    try:
        job.run()
    except Exception as err:
        raise RuntimeError("job failed") from err


text = "except: pass"
