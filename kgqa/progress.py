"""The progress callback type the library reports long work through (the CLI renders it)."""

from __future__ import annotations

from collections.abc import Callable

#: on_progress(phase, done, total): `total` is None when unknown. Called often; must be cheap.
ProgressFn = Callable[[str, int, "int | None"], None]


def no_progress(phase: str, done: int, total: int | None) -> None:
    """The default: report nothing."""
