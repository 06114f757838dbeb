"""Renders the library's on_progress callbacks on stderr: rate and ETA on a TTY, silent otherwise."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from kgqa.progress import ProgressFn, no_progress


def progress_printer(enabled: bool) -> ProgressFn:
    """A callback that draws one updating line per phase on stderr, or does nothing."""
    if not enabled or not sys.stderr.isatty():
        return no_progress
    state: dict[str, float] = {}

    def show(phase: str, done: int, total: int | None) -> None:
        now = time.monotonic()
        start = state.setdefault(phase, now)
        if now - state.get("_last", 0.0) < 0.1 and (total is None or done < total):
            return
        state["_last"] = now
        elapsed = max(now - start, 1e-6)
        rate = done / elapsed
        if total:
            eta = (total - done) / rate if rate > 0 else 0.0
            line = f"{phase}: {done}/{total} ({100 * done / total:.0f}%) {rate:.1f}/s ETA {eta:.0f}s"
        else:
            line = f"{phase}: {done} {rate:.1f}/s"
        sys.stderr.write("\r\033[K" + line)
        if total is not None and done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


@contextmanager
def progress_line(enabled: bool) -> Iterator[ProgressFn]:
    """The callback for one piece of long work; clears its line on stderr when the work ends."""
    try:
        yield progress_printer(enabled)
    finally:
        if enabled and sys.stderr.isatty():
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
