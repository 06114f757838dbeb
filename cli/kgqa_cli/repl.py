"""The interactive loop of `kgqa sql` and `kgqa cypher`: statements end with `;`; `.quit` or EOF ends."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import click

from kgqa.errors import KgqaError


def statements(stream: TextIO, prompt: str = "", more: str = "") -> Iterator[str]:
    """Statements read from `stream`, each ended by a `;` at the end of a line (or by EOF)."""
    interactive = stream.isatty()
    buf: list[str] = []
    while True:
        if interactive:
            click.echo(more if buf else prompt, nl=False, err=True)
        line = stream.readline()
        if not line:
            break
        stripped = line.strip()
        if not buf and stripped in (".quit", ".exit", "\\q"):
            return
        if not stripped and not buf:
            continue
        buf.append(line.rstrip("\n"))
        if stripped.endswith(";"):
            yield "\n".join(buf)
            buf = []
    if "".join(buf).strip():
        yield "\n".join(buf)


def loop(
    execute: Callable[[str], tuple[list[str], list[Any]]],
    render: Callable[[list[str], list[Any]], str],
    name: str,
    stream: TextIO | None = None,
) -> int:
    """Run every statement from `stream` (stdin); errors are shown and the loop goes on. Returns
    the number of failed statements."""
    stream = stream or sys.stdin
    if stream.isatty():
        click.echo(f"kgqa {name}: end statements with ';', .quit to leave", err=True)
    failed = 0
    for stmt in statements(stream, f"{name}> ", " " * len(name) + "> "):
        try:
            columns, rows = execute(stmt)
        except KgqaError as exc:
            click.echo(f"error: {exc}", err=True)
            failed += 1
            continue
        click.echo(render(columns, rows))
    return failed


def run_session(session: Any, text: str | None, fmt: str, name: str) -> None:
    """Run one statement (`-c`) or the interactive loop on a session with `execute` and `close`;
    exit with status 3 when a statement of the loop failed (each was reported)."""
    from kgqa_cli.table import format_rows

    failed = 0
    try:
        if text is not None:
            click.echo(format_rows(*session.execute(text), fmt=fmt))
        else:
            failed = loop(session.execute, lambda c, r: format_rows(c, r, fmt=fmt), name)
    finally:
        session.close()
    if failed:
        sys.exit(3)
