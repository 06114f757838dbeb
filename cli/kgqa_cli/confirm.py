"""Confirmation of destructive steps: a prompt on a terminal, `--yes` otherwise."""

from __future__ import annotations

import sys

import click

from kgqa.errors import ConfirmationRequired
from kgqa.vectorstores.base import IndexCounts

yes_option = click.option(
    "--yes",
    "-y",
    is_flag=True,
    help="Confirm removing index data without a prompt (required when stdin is not a terminal).",
)


def removal_text(counts: IndexCounts, store: str, hubs: int | None = None) -> str:
    """'N hubs (P paths, V vectors) from the S store' (or 'N hubs of its M ...') for a confirmation."""
    hubs = counts.hubs if hubs is None else hubs
    detail = (
        f" ({counts.paths:,} paths, {counts.vectors:,} vectors)"
        if hubs == counts.hubs
        else f" of its {counts.hubs:,} (with their paths and vectors)"
    )
    return f"{hubs:,} hub{'' if hubs == 1 else 's'}{detail} from the {store} store"


def confirm_removal(what: str, yes: bool) -> None:
    """Go on when `yes`, or when the user confirms on a terminal; else ConfirmationRequired (exit 2)."""
    if yes:
        return
    if sys.stdin is not None and sys.stdin.isatty():
        if click.confirm(f"{what}. Continue?", default=False, err=True):
            return
        raise ConfirmationRequired(f"{what}: not confirmed, nothing changed")
    raise ConfirmationRequired(f"{what}; stdin is not a terminal, so add --yes to confirm (nothing changed)")
