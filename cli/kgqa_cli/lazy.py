"""A click group whose commands are imported only when one is run (or its own help is shown), so that
`kgqa --help` and light commands do not pay for the library's heavy imports."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import click


@dataclass(frozen=True)
class LazyCommand:
    """Where a command lives (`module:attribute`) and the one line `kgqa --help` shows for it."""

    target: str
    short_help: str


class LazyGroup(click.Group):
    """A group that imports a command's module on first use; `--help` lists the stored short help."""

    def __init__(self, *args: object, lazy: dict[str, LazyCommand] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, attribute = self.lazy[cmd_name].target.split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [
            (
                name,
                self.lazy[name].short_help
                if name in self.lazy and name not in self.commands
                else self.commands[name].get_short_help_str(formatter.width),
            )
            for name in self.list_commands(ctx)
        ]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
