# Real shapes: a count checked with > before indexing, a short packet
# checked with < 4 before reading byte 4, and <= in a loop; near misses
# after.


def arg(params, count):
    if count > len(params):  # want "lets count == len\(params\) through"
        raise ValueError("too few parameters")
    return params[count]


class Socks:
    def parse(self):
        if len(self.buf) < 4:  # want "self.buf\[4\]"
            return None
        atyp = self.buf[4]
        return atyp


def walk(items, i):
    while i <= len(items):  # want "items\[i\]"
        print(items[i])
        i += 1


def near(items, i):
    if i >= len(items):
        return None
    if len(items) <= i:
        return None
    if i > len(items):
        items.insert(i, 0)
    head = items[:i]
    return items[i], head


def other(items, other_items, i):
    if i > len(items):
        raise IndexError(i)
    return other_items[i], self_items(items)[i]
