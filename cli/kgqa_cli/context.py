"""Shared CLI state: the database location and output flags, and opening the workspace."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from kgqa.config import Settings

if TYPE_CHECKING:  # the library's front door imports most of it: loaded when a command opens a workspace
    from kgqa.api import Workspace


@dataclass
class CliState:
    """Options of the root group."""

    db: str | None
    quiet: bool
    trace: bool
    store: str | None = None  # --store of the command (kgqa_cli/options.py)
    pg_dsn: str | None = None  # --pg-dsn of the command
    index: str | None = None  # --index of the root group (KGQA_INDEX)
    graph: str | None = None  # --graph of the command (KGQA_GRAPH)
    graph_schema: str | None = None  # --graph-schema of the command (KGQA_PG_GRAPH_SCHEMA)
    memory: str | None = None  # --memory of the root group (KGQA_MEMORY, kgqa/memory.py)

    def settings(self) -> Settings:
        """Settings from the options and the environment (KGQA_DB, KGQA_EMBEDDING_MODEL, KGQA_TRACE,
        KGQA_STORE, KGQA_PG_DSN, KGQA_GRAPH, KGQA_PG_GRAPH_SCHEMA)."""
        return Settings.from_env(
            self.db,
            trace=self.trace or None,
            store=self.store,
            pg_dsn=self.pg_dsn,
            index=self.index,
            graph=self.graph,
            graph_schema=self.graph_schema,
            memory=self.memory,
        )

    def open(self, *, create: bool = False, read_only: bool = False) -> Workspace:
        """Open (or create) the workspace; read-only lets several readers share the database."""
        from kgqa.api import Workspace

        return Workspace(self.settings(), create=create, read_only=read_only)

    def info(self, message: str) -> None:
        """A status line on stderr, unless --quiet."""
        if not self.quiet:
            click.echo(message, err=True)


pass_state = click.make_pass_decorator(CliState)
