"""`kgqa init`, `kgqa load`, `kgqa stats`: create the database and manage the graph."""

from __future__ import annotations

import json

import click

from kgqa.api import Workspace
from kgqa.errors import BatchError, KgqaError, NotInitialisedError, StoreBusyError
from kgqa.graph.loaders import FORMATS
from kgqa_cli.commands.index import show_report
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import store_options
from kgqa_cli.progress import progress_line


@click.command()
@click.option("--db", "db_opt", default=None, metavar="PATH", help="Where to create the database.")
@pass_state
def init(state: CliState, db_opt: str | None) -> None:
    """Create a HubLink database (nothing to start: embedded Kùzu)."""
    if db_opt:
        state.db = db_opt
    with state.open(create=True) as ws:
        click.echo(f"initialised {ws.settings.db_path}")


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Input format (default: from the file extension; .txt: from its first line).",
)
@click.option(
    "--update-index", is_flag=True, help="Then rebuild the hubs the load touched (`kgqa index update --dirty`)."
)
@click.option("--keep-going", is_flag=True, help="Exit 0 when some (not all) of several files failed.")
@store_options
@pass_state
def load(state: CliState, files: tuple[str, ...], fmt: str | None, update_index: bool, keep_going: bool) -> None:
    """Load triples from FILES (ORKG JSON, CSV/TSV, pipe-separated such as MetaQA's kb.txt, N-Triples,
    Turtle). Loading twice adds nothing;
    a malformed record aborts that file's load with nothing of it applied (the other files still
    load). With an index, the hubs the new triples touch are marked dirty in the same transaction.
    Exits non-zero when every file failed, or when some failed (unless --keep-going)."""
    from kgqa_cli.service_writes import running_service, send_file

    settings = state.settings()
    client = running_service(settings.db_path) if settings.graph == "kuzu" else None
    if client is not None:  # a `kgqa serve` holds the database: it loads the triples and rebuilds the hubs
        from kgqa_cli.commands.triples import show_service_reply

        for file in files:
            show_service_reply("add", send_file(client, "add", file, fmt))
        return
    failures: list[KgqaError] = []
    marked = 0
    entities: int | None = None  # the graph in Postgres: the entities its triggers marked
    with state.open(create=True) as ws:
        for file in files:
            try:
                with progress_line(not state.quiet) as progress:
                    report = ws.load(file, fmt, on_progress=progress)
            except (StoreBusyError, NotInitialisedError):
                raise  # the database, not the file: the other files would fail alike
            except KgqaError as exc:
                if len(files) == 1:
                    raise
                click.echo(f"error: {exc}", err=True)
                failures.append(exc)
                continue
            marked += report.hubs_marked
            if report.entities_marked is not None:
                entities = (entities or 0) + report.entities_marked
            click.echo(
                f"loaded {report.source} ({report.format}): {report.records} records, "
                f"+{report.entities_added} entities, +{report.triples_added} triples "
                f"(now {report.entities_total} entities, {report.triples_total} triples)"
            )
        if len(failures) < len(files):
            after_change(state, ws, marked, update_index, entities)
    if failures:
        fail_batch(len(failures), len(files), "files", keep_going, failures[0])


def fail_batch(failed: int, total: int, what: str, keep_going: bool, first: KgqaError | None = None) -> None:
    """After a batch with `failed` of `total` items failed: every one -> BatchError carrying the first
    error's exit code (10 without one); some -> BatchError (exit 10) unless `keep_going` (then a note
    on stderr)."""
    if failed == total:
        error = BatchError(f"all {total} {what} failed" + (f"; the first: {first}" if first is not None else ""))
        if first is not None:
            error.exit_code = first.exit_code
        raise error
    message = f"{failed} of {total} {what} failed (see the errors above)"
    if keep_going:
        click.echo(f"note: {message}", err=True)
        return
    raise BatchError(message + "; --keep-going accepts a partial result")


def after_change(state: CliState, ws: Workspace, marked: int, update_index: bool, entities: int | None = None) -> None:
    """Say which hubs a graph change marked dirty (with the graph in Postgres, whose triggers mark
    entities: how many, and the hubs they reach); with `update_index`, rebuild them now."""
    if ws.index_status().info is None:
        return
    hubs = f"{marked} hub{'' if marked == 1 else 's'}"
    if entities is None:
        click.echo(f"{hubs} marked dirty" + ("" if update_index or not marked else "; run `kgqa index update --dirty`"))
    else:
        click.echo(
            f"{entities} changed entit{'y' if entities == 1 else 'ies'} marked dirty, reaching {hubs}"
            + (
                ""
                if update_index or not entities
                else "; a running `kgqa serve --graph postgres` rebuilds them, or run "
                "`kgqa index update --dirty --graph postgres`"
            )
        )
    if update_index:
        with progress_line(not state.quiet) as progress:
            report = ws.update_index(dirty=True, on_progress=progress)
        show_report(report, as_json=False)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_state
def stats(state: CliState, as_json: bool) -> None:
    """Size and shape of the stored graph."""
    with state.open(read_only=True) as ws:  # a reader: it runs beside `kgqa serve`
        s = ws.stats()
    if as_json:
        click.echo(json.dumps(s.__dict__, indent=2))
        return
    click.echo(f"entities: {s.entities} ({s.literals} literals)\ntriples: {s.triples}\npredicates: {s.predicates}")
    click.echo("top predicates: " + ", ".join(f"{p} ({n})" for p, n in s.top_predicates))
    click.echo("top types: " + ", ".join(f"{t} ({n})" for t, n in s.top_types))
