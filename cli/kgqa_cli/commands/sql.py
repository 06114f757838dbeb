"""`kgqa sql`: a DuckDB session with HubLink UDFs (or `-c "..."`); `kgqa sql install`: the SQL layer
in Postgres (views, in-database ranking functions, the view of past questions)."""

from __future__ import annotations

import click

from kgqa.frontends.duck import open_sql_session
from kgqa.postgres.server import resolve_dsn
from kgqa.postgres.sql_layer import InstallOptions, install_into
from kgqa.retrieval.options import AskOptions, params_from_options
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import SESSION_OPTIONS, retrieval_options, store_options
from kgqa_cli.repl import run_session
from kgqa_cli.table import FORMATS


@click.group(invoke_without_command=True)
@click.option(
    "-c",
    "--command",
    "sql",
    default=None,
    metavar="SQL",
    help="Run these statements and exit (default: read statements from stdin).",
)
@click.option(
    "--run",
    "runs",
    multiple=True,
    type=click.Path(dir_okay=False),
    metavar="RUN.jsonl",
    help="Eval run files to query as the view `runs` (repeatable).",
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("--no-server", is_flag=True, help="Answer in this process even when `kgqa serve` runs for the database.")
@store_options
@retrieval_options(*SESSION_OPTIONS)
@pass_state
@click.pass_context
def sql(
    ctx: click.Context,
    state: CliState,
    sql: str | None,
    runs: tuple[str, ...],
    fmt: str,
    no_server: bool,
    options: AskOptions,
) -> None:
    """A DuckDB session (not Postgres) with kgqa_ask(question), kgqa_retrieve(question, k),
    kgqa_hubs(question, k), kgqa_answers() and the view `runs` over eval run files. `kgqa sql
    install` is the Postgres side: it installs CALL kgqa.ask(...) and the SQL layer there."""
    params = params_from_options(options)  # checked even when a subcommand follows
    if ctx.invoked_subcommand is not None:
        return
    session = open_sql_session(
        state.settings(), params, llm=options.llm, runs=runs, no_server=no_server, note=state.info
    )
    run_session(session, sql, fmt, "sql")


@sql.command()
@store_options
@click.option("--default", "make_default", is_flag=True, help="Make this index the one unqualified calls use.")
@click.option("--asker-role", metavar="NAME", help="Name of the role that may ask (default: kgqa_asker).")
@click.option("--worker-role", metavar="NAME", help="Name of the role of `kgqa serve` (default: kgqa_worker).")
@click.option("--queue-cap", type=int, metavar="N", help="Questions one role may have queued at once (default 100).")
@pass_state
def install(
    state: CliState, make_default: bool, asker_role: str | None, worker_role: str | None, queue_cap: int | None
) -> None:
    """Postgres (not DuckDB): install or update, for this index, the question queue (kgqa.submit,
    CALL kgqa.ask, kgqa.wait; `kgqa serve --store pgvector` answers it), the SQL layer in schema
    kgqa_<index> (views, rank_hubs, rank_triples, past_questions) and the asker and worker roles
    (docs/postgres-roles.md)."""
    settings = state.settings()
    options = InstallOptions(asker_role, worker_role, queue_cap, make_default)
    index, names = install_into(
        resolve_dsn(settings), settings.index_name, explicit=settings.index is not None, options=options
    )
    click.echo(f"installed {len(names)} scripts into index '{index}': {', '.join(n.rsplit('/', 1)[-1] for n in names)}")
    if make_default:
        click.echo(f"index '{index}' is the default of unqualified calls (CALL kgqa.ask('...'))")
