"""`kgqa init`, `kgqa load`, `kgqa stats`: create the database and manage the graph."""

from __future__ import annotations

import json

import click

from kgqa.graph.loaders import FORMATS
from kgqa_cli.context import CliState, pass_state
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
@pass_state
def load(state: CliState, file: str, fmt: str | None) -> None:
    """Load triples from FILE (ORKG JSON, CSV/TSV, N-Triples, Turtle). Loading twice adds nothing;
    a malformed record aborts the load with nothing applied."""
    with state.open(create=True) as ws, progress_line(not state.quiet) as progress:
        report = ws.load(file, fmt, on_progress=progress)
    click.echo(f"loaded {report.source} ({report.format}): {report.records} records, "
               f"+{report.entities_added} entities, +{report.triples_added} triples "
               f"(now {report.entities_total} entities, {report.triples_total} triples)")


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
