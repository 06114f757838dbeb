"""`kgqa init`, `kgqa load`, `kgqa stats`: create the database and manage the graph."""

from __future__ import annotations

import json

import click

from kgqa.api import Workspace
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
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="Input format (default: from the file extension).")
@click.option("--update-index", is_flag=True,
              help="Then rebuild the hubs the load touched (`kgqa index update --dirty`).")
@store_options
@pass_state
def load(state: CliState, file: str, fmt: str | None, update_index: bool) -> None:
    """Load triples from FILE (ORKG JSON, CSV/TSV, N-Triples, Turtle). Loading twice adds nothing;
    a malformed record aborts the load with nothing applied. With an index, the hubs the new
    triples touch are marked dirty in the same transaction."""
    with state.open(create=True) as ws:
        with progress_line(not state.quiet) as progress:
            report = ws.load(file, fmt, on_progress=progress)
        click.echo(f"loaded {report.source} ({report.format}): {report.records} records, "
                   f"+{report.entities_added} entities, +{report.triples_added} triples "
                   f"(now {report.entities_total} entities, {report.triples_total} triples)")
        after_change(state, ws, report.hubs_marked, update_index)


def after_change(state: CliState, ws: Workspace, marked: int, update_index: bool) -> None:
    """Say which hubs a graph change marked dirty; with `update_index`, rebuild them now."""
    if ws.index_status().info is None:
        return
    click.echo(f"{marked} hub{'' if marked == 1 else 's'} marked dirty"
               + ("" if update_index or not marked else "; run `kgqa index update --dirty`"))
    if update_index:
        with progress_line(not state.quiet) as progress:
            report = ws.update_index(dirty=True, on_progress=progress)
        show_report(report, as_json=False)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_state
def stats(state: CliState, as_json: bool) -> None:
    """Size and shape of the stored graph."""
    with state.open() as ws:
        s = ws.stats()
    if as_json:
        click.echo(json.dumps(s.__dict__, indent=2))
        return
    click.echo(f"entities: {s.entities} ({s.literals} literals)\ntriples: {s.triples}\npredicates: {s.predicates}")
    click.echo("top predicates: " + ", ".join(f"{p} ({n})" for p, n in s.top_predicates))
    click.echo("top types: " + ", ".join(f"{t} ({n})" for t, n in s.top_types))
