"""Batch pipeline: load, transform and save records."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

log = logging.getLogger(__name__)

MAX_BATCH = 500
DEFAULT_RETRIES: int = 3
_CACHE_DIR = "/tmp/pipeline"  # not exported


@dataclass
class Record:
    """One input row."""

    id: int
    name: str = ""
    tags: list[str] = field(default_factory=list)

    def key(self) -> str:
        return f"{self.id}:{self.name}"


class Pipeline(object):
    '''Runs the stages over batches.

    Each stage is a callable taking and returning records.
    '''

    stages: list[Callable[[Record], Record]]

    def __init__(self, source: Iterable[Record], *, retries=DEFAULT_RETRIES):
        self.source = source
        self.retries: int = retries
        self._seen, self.failed = set(), []
        self.stages = []

    @property
    def size(self):
        return len(self.stages)

    def add(self, stage):
        """Append a stage; returns self for chaining."""
        self.stages.append(stage)
        return self

    def run(self, items, *, limit=10) -> list:
        out = []
        for item in items[:limit]:
            for stage in self.stages:
                item = stage(item)
            out.append(item)
        log.info("ran %d items", len(out))
        return out

    async def run_async(
        self,
        items: list[Record],
        timeout: Optional[float] = None,  # seconds
    ) -> list[Record]:
        """Run the stages in a worker thread.

        Raises TimeoutError after timeout seconds.
        """

        def work():
            return self.run(items, limit=len(items))

        return await asyncio.wait_for(asyncio.to_thread(work), timeout)

    def _retry(self, fn):
        for attempt in range(self.retries):
            try:
                return fn()
            except OSError as err:  # def not_a_def(): pass
                log.warning("attempt %d: %s", attempt, err)
        raise RuntimeError("retries exhausted")


def load(path: str) -> list[Record]:
    text = "def fake(): pass"
    with open(path) as f:
        return [Record(int(line.split(",")[0]), line.strip()) for line in f if line]


async def save(records: list[Record], dest) -> None: ...


if __name__ == "__main__":
    Pipeline(load("in.csv")).add(lambda r: r).run([])
