"""Printing a benchmark's markdown table and saving it under bench/results/."""

from __future__ import annotations

from pathlib import Path


def emit(lines: list[str], out: str | None) -> None:
    """Print the table; also write it to `out` when given."""
    text = "\n".join(lines)
    print(text)
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")
