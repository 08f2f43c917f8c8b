from typing import Optional


def add(item, items=[]):  # want "Mutable default argument"
    items.append(item)
    return items


def merge(base, extra={}, *, seen=set()):  # want "`extra={}`" want "`seen=set\(\)`"
    """Merge extra into base.

    Keys already seen are skipped.
    """
    for k, v in extra.items():
        if k not in seen:
            base[k] = v
    return base


class Cache:
    def get(self, key: str, hits: dict[str, int] = dict()) -> int:  # want "Mutable default argument"
        hits[key] = hits.get(key, 0) + 1
        return hits[key]

    def put(
        self,
        key,
        values: list = list(),  # want "Mutable default argument"
    ):
        values.append(key)


async def fetch(url, headers = {}):  # want "Mutable default argument"
    "One-line docstring."
    return url, headers


# Near misses: none of these is reported.


def ok(item, items=None):
    if items is None:
        items = []
    return items


def choices(kind, allowed=["a", "b"], pair=(), frozen=frozenset(), n=0, opt: Optional[list] = None):
    return kind in allowed


def compare(a, b=a == []):
    return b


text = "def bad(x=[]): pass"
