"""Bounded concurrency for LLM requests: a thread pool that keeps input order and fails fast."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def map_bounded(fn: Callable[[T], R], items: Sequence[T], workers: int) -> list[R]:
    """`[fn(x) for x in items]` with at most `workers` running at once. The first exception is
    raised after cancelling the calls not yet started."""
    if workers <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(max_workers=min(workers, len(items)), thread_name_prefix="kgqa-llm") as pool:
        futures = [pool.submit(fn, x) for x in items]
        _, pending = wait(futures, return_when=FIRST_EXCEPTION)
        for f in pending:
            f.cancel()
        for f in futures:
            if f.done() and not f.cancelled() and f.exception() is not None:
                raise f.exception()  # type: ignore[misc]
        return [f.result() for f in futures]
