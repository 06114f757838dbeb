"""The setting naming a user's own graph views: `--graph-schema`, `KGQA_PG_GRAPH_SCHEMA`, the
`graph_schema` field of Settings (checked in kgqa/config.py, read by kgqa/postgres/graph_views.py)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from kgqa_cli.context import CliState
from kgqa_cli.main import cli

from kgqa.config import Settings
from kgqa.errors import ConfigError


@pytest.fixture(autouse=True)
def no_graph_env(monkeypatch):
    for name in ("KGQA_PG_GRAPH_SCHEMA", "KGQA_GRAPH", "KGQA_STORE"):
        monkeypatch.delenv(name, raising=False)


def test_unset_means_hublinks_own_tables(monkeypatch):
    assert Settings.from_env().graph_schema is None
    monkeypatch.setenv("KGQA_PG_GRAPH_SCHEMA", " ")
    settings = Settings.from_env()
    assert settings.graph_schema is None and settings.graph == "kuzu"


def test_a_plain_schema_name_is_taken_and_implies_the_graph_in_postgres(monkeypatch):
    monkeypatch.setenv("KGQA_PG_GRAPH_SCHEMA", "library")
    settings = Settings.from_env()
    assert (settings.graph_schema, settings.graph, settings.store) == ("library", "postgres", "pgvector")
    flag = Settings.from_env(graph_schema="mine")  # the flag wins over the environment
    assert flag.graph_schema == "mine"


@pytest.mark.parametrize("name", ["Library", "lib; DROP TABLE x", "1lib", "kgqa", "kgqa_demo"])
def test_a_bad_or_hublink_schema_is_a_config_error(monkeypatch, name):
    monkeypatch.setenv("KGQA_PG_GRAPH_SCHEMA", name)
    with pytest.raises(ConfigError, match="--graph-schema / KGQA_PG_GRAPH_SCHEMA"):
        Settings.from_env()
    with pytest.raises(ConfigError, match="--graph-schema"):
        Settings(graph="postgres", store="pgvector", graph_schema=name)


def test_views_with_the_graph_in_kuzu_are_refused():
    with pytest.raises(ConfigError, match="use it with --graph postgres"):
        Settings.from_env(graph="kuzu", graph_schema="library")


def test_the_flag_reaches_the_settings_of_every_command_with_graph(monkeypatch):
    """`--graph-schema` is declared once (kgqa_cli/options.py) beside `--graph`: every command that
    takes `--graph` takes it too, and its value reaches the settings the command opens."""
    seen: list[Settings] = []
    monkeypatch.setattr(CliState, "open", lambda self, **_: seen.append(self.settings()) or _stop())
    out = CliRunner().invoke(cli, ["ask", "q?", "--graph-schema", "library"])
    assert seen and (seen[0].graph_schema, seen[0].graph) == ("library", "postgres"), out.output
    with_graph = [name for name, command in _commands(cli) if "--graph" in _flags(command)]
    assert len(with_graph) >= 10
    assert [n for n, c in _commands(cli) if ("--graph" in _flags(c)) != ("--graph-schema" in _flags(c))] == []
    bad = CliRunner().invoke(cli, ["ask", "q?", "--graph-schema", "Bad Name"])
    assert isinstance(bad.exception, ConfigError) and "not a schema name" in str(bad.exception)
    assert bad.exception.exit_code == 2 and seen[1:] == []  # refused before anything is opened


class _Stopped(Exception):
    pass


def _stop():
    raise _Stopped


def _commands(group, prefix=""):
    import click

    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from _commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def _flags(command) -> set[str]:
    return {opt for p in command.params for opt in getattr(p, "opts", [])}
