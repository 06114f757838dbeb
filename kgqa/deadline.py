"""A per-question time budget: `Workspace.ask` sets a deadline, the retrieval loops call `check()`
between units of work (cooperative: a running database query is not interrupted)."""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterable, Iterator
from typing import TypeVar

from kgqa.errors import QuestionTimeoutError

T = TypeVar("T")

_deadline: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar("kgqa_deadline", default=None)


@contextlib.contextmanager
def question_budget(seconds: float | None) -> Iterator[None]:
    """Within the block, `check()` raises QuestionTimeoutError once `seconds` have passed
    (None: no budget)."""
    token = _deadline.set(None if seconds is None else (time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _deadline.reset(token)


def check(where: str = "") -> None:
    """Raise QuestionTimeoutError if the current question's budget is spent."""
    current = _deadline.get()
    if current is not None and time.monotonic() > current[0]:
        raise QuestionTimeoutError(
            f"the question took longer than its time budget of {current[1]:g} s"
            + (f" (stopped in {where})" if where else "")
            + "; ask with fewer hubs/paths, or raise KGQA_QUESTION_TIMEOUT"
        )


def remaining() -> float | None:
    """Seconds left in the current budget (None: no budget)."""
    current = _deadline.get()
    return None if current is None else current[0] - time.monotonic()


def checked(items: Iterable[T], where: str, every: int = 1_000) -> Iterator[T]:
    """`items`, with `check(where)` before the first and after every `every` of them: a long loop (a
    super-node's paths, a list of 200,000 values) stops at the budget instead of running past it."""
    for i, item in enumerate(items):
        if i % every == 0:
            check(where)
        yield item
