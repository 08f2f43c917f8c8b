import logging

log = logging.getLogger(__name__)


def total(items):
    print("items", items)  # want "Debug statement left in"
    if not items:
        print(  # want "print\(\) in a library module"
            "empty",
        )
    breakpoint()  # want "Debugger breakpoint left in"
    import pdb; pdb.set_trace()  # want "Debugger breakpoint"
    return sum(items)


def only(x):
    if x:
        print(x)  # want "Debug statement"
    return x


# Near misses: none of these is reported.
def fine(items, out):
    print("report", file=out)
    log.debug("items %s", items)
    text = "print(items)"
    return text



def report(items):
    print("items:", len(items))


def fetch(conn, debug=False):
    data = conn.read()
    if debug:
        print("read", len(data))
    return data
