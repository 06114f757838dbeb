"""The bad-input table (bad_input_rows.py) run row by row: each row gets a fresh copy of the small
indexed base database, runs its command (in-process through the console entry point, or as a real
process), and must give its exit code and message fragment while the stored graph, index, dirty
marks and label index stay exactly as they were (counts and content hashes). Rows against
Postgres also check the pgvector index, and the SQL functions get their own table."""

from __future__ import annotations

import re

import psycopg
import pytest
from bad_input_rows import CLI_ROWS, PG_CLI_ROWS, PROCESS_ROWS, SQL_ROWS, Row
from click.testing import CliRunner
from conftest import RUNNERS, check
from kgqa_cli.main import cli
from reliability_state import kuzu_state, pg_state

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.postgres.database import with_database

pytestmark = pytest.mark.slow


def run_row(row: Row, sandbox, pg_dsn: str | None = None) -> tuple[int, str]:
    for name, content in row.files.items():
        (sandbox.dir / name).write_bytes(content)
    args = [sandbox.fill(a).replace("{pg}", pg_dsn or "") for a in row.args]
    env = {k: sandbox.fill(v) for k, v in row.env.items()}
    return RUNNERS[row.via](args, env)


@pytest.mark.parametrize("row", CLI_ROWS + PROCESS_ROWS, ids=lambda row: row.id)
def test_bad_input_changes_nothing(row: Row, base, sandbox, shared_model):
    code, output = run_row(row, sandbox)
    check(row, code, output)
    assert kuzu_state(sandbox.db) == base.state, f"{row.id} changed the database"


# -- Postgres: the pgvector store holding another graph's index, and the SQL functions ------------

OTHER_GRAPH = (
    "subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal\n"
    "X1,venue,W1,Another Paper,Paper,Other Venue,Venue,false\n"
    "X2,venue,W1,Yet Another Paper,Paper,Other Venue,Venue,false\n"
)


@pytest.fixture(scope="module")
def pg_other(pg_server, tmp_path_factory, embedder) -> str:
    """A Postgres database holding the index of another graph (2 Paper hubs), SQL layer installed."""
    name = "reliability_other"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    dsn = with_database(pg_server, name)
    root = tmp_path_factory.mktemp("pg-other")
    (root / "other.csv").write_text(OTHER_GRAPH, encoding="utf-8")
    with Workspace.init(Settings(db_path=root / "other.kuzu", store="pgvector", pg_dsn=dsn), embedder=embedder) as ws:
        ws.load(root / "other.csv")
        ws.build_index(IndexParams(hub_types=("Paper",)))
    result = CliRunner().invoke(cli, ["sql", "install", "--pg-dsn", dsn])
    assert result.exit_code == 0, result.output
    return dsn


@pytest.mark.postgres
@pytest.mark.parametrize("row", PG_CLI_ROWS, ids=lambda row: row.id)
def test_bad_input_against_postgres_changes_nothing(row: Row, base, sandbox, shared_model, pg_other):
    before = pg_state(pg_other)
    code, output = run_row(row, sandbox, pg_other)
    check(row, code, output)
    assert kuzu_state(sandbox.db) == base.state
    assert pg_state(pg_other) == before, f"{row.id} changed the pgvector index"


@pytest.mark.postgres
@pytest.mark.parametrize("call, sqlstate, fragment", SQL_ROWS, ids=[c for c, _, _ in SQL_ROWS])
def test_sql_functions_reject_bad_arguments(pg_other, call, sqlstate, fragment):
    before = pg_state(pg_other)
    v = "(SELECT embedding::vector FROM kgqa_other.embedded_texts ORDER BY hash LIMIT 1)"
    with psycopg.connect(pg_other) as conn, pytest.raises(psycopg.Error) as info:
        conn.execute(f"SELECT * FROM {call.format(v=v)}")  # the table's own SQL text, no outside values
    assert info.value.sqlstate == sqlstate and fragment in str(info.value), (info.value.sqlstate, str(info.value))
    assert pg_state(pg_other) == before


def test_the_table_is_large_and_covers_every_command():
    from bad_input_rows import CLI_ROWS as rows

    commands = {row.command for row in rows + PROCESS_ROWS + PG_CLI_ROWS}
    every = {" ".join(path) for path in _command_paths(cli)}
    assert every <= commands, f"commands without a bad-input row: {sorted(every - commands)}"
    assert len(rows + PROCESS_ROWS + PG_CLI_ROWS) + len(SQL_ROWS) >= 60
    assert len({row.id for row in rows + PROCESS_ROWS + PG_CLI_ROWS}) == len(rows + PROCESS_ROWS + PG_CLI_ROWS)


def _command_paths(group, prefix=()):
    import click

    for name, command in group.commands.items():
        if isinstance(command, click.Group) and command.commands and name not in ("sql", "eval"):
            yield from _command_paths(command, (*prefix, name))
        else:
            yield (*prefix, name)
        if isinstance(command, click.Group) and name in ("sql", "eval"):
            yield from ((*prefix, name, sub) for sub in command.commands if sub != "run")


def test_row_fragments_are_plain_text():
    for row in CLI_ROWS:
        assert not re.search(r"\{(?!dir\}|db\}|pg\})", " ".join(row.args)), row.id
