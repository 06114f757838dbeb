"""Several reads of one question at once on a read-only Kùzu database.

A direct question at 10^6 triples makes about four HNSW searches and some 150 primary-key reads (the
paths and root entities of its candidate hubs); each is a query of its own, and Kùzu runs a small query
on one thread with the Python lock released. On a read-only database other connections to the same
handle read the same state, so a batch of such queries is split between `READERS` connections, each on
a thread of its own (docs/scale.md, "HubLink's direct retrieval under 300 ms at 10^6"). Only for
read-only stores: a writer's connection may hold a transaction that other connections would not see.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import kuzu

#: Connections a batch is split between: one per core, at most 4 (small queries gain little past that).
READERS = max(1, min(4, os.cpu_count() or 1))
#: A batch smaller than this runs on the calling thread (a thread hand-off costs about what a query does).
PARALLEL_MIN = 4

Run = Callable[[Any, int, Any], list[list[Any]]]


class ReaderPool:
    """`size` connections to one open database (the store's own first) and the threads that use them."""

    def __init__(self, db: kuzu.Database, first: kuzu.Connection, size: int | None = None) -> None:
        size = size or READERS
        self._connections = [first] + [kuzu.Connection(db) for _ in range(max(0, size - 1))]
        self._executor = ThreadPoolExecutor(max_workers=size - 1, thread_name_prefix="kgqa-read") if size > 1 else None

    @property
    def size(self) -> int:
        """How many connections a batch is split between."""
        return len(self._connections)

    def map(self, run: Run, items: Sequence[Any]) -> list[list[list[Any]]]:
        """`run(connection, index, item)` for every item, the items split into one contiguous share per
        connection (the first on the calling thread); the results in the items' order. An error in any
        share is raised here, after every share has finished."""
        shares = _shares(len(items), self.size if len(items) >= PARALLEL_MIN else 1)
        if len(shares) <= 1 or self._executor is None:
            return [run(self._connections[0], 0, item) for item in items]

        def share(index: int) -> list[list[list[Any]]]:
            lo, hi = shares[index]
            return [run(self._connections[index], index, item) for item in items[lo:hi]]

        futures = [self._executor.submit(share, i) for i in range(1, len(shares))]
        try:
            results = share(0)
        finally:
            others = [f.exception() or f.result() for f in futures]  # wait for every share
        for other in others:
            if isinstance(other, BaseException):
                raise other
            results.extend(other)
        return results

    def close(self) -> None:
        """Close the extra connections and stop the threads (the first connection is the store's)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
        for conn in self._connections[1:]:
            conn.close()
        self._connections = self._connections[:1]


def _shares(n: int, parts: int) -> list[tuple[int, int]]:
    """`n` items as at most `parts` contiguous (start, end) ranges of near-equal size, none empty."""
    if n <= 0:
        return []
    parts = max(1, min(parts, n))
    step, extra = divmod(n, parts)
    bounds, start = [], 0
    for i in range(parts):
        end = start + step + (1 if i < extra else 0)
        bounds.append((start, end))
        start = end
    return bounds
