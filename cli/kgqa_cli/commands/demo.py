"""`kgqa demo`: load the packaged scholarly graph, build its index and ask a few questions."""

from __future__ import annotations

import click

from kgqa.config import IndexParams, RetrievalParams
from kgqa.demo import DEMO_QUESTIONS, demo_graph_path
from kgqa.errors import ConfigError
from kgqa.graph.edits import triples_in_file
from kgqa_cli.commands.ask import render
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.progress import progress_line

#: Where the demo goes unless --db says otherwise.
DEMO_DB = ".kgqa/demo.kuzu"


@click.command()
@click.option(
    "--db",
    "db_opt",
    default=None,
    metavar="PATH",
    help=f"Database for the demo (default: the group's --db when given, else {DEMO_DB}; $KGQA_DB is "
    "not used, so the demo never goes into your graph).",
)
@pass_state
@click.pass_context
def demo(ctx: click.Context, state: CliState, db_opt: str | None) -> None:
    """Run the demo end to end: load -> index build -> ask (offline mode, nothing to start)."""
    group = ctx.parent
    given = group is not None and group.get_parameter_source("db") == click.core.ParameterSource.COMMANDLINE
    db_opt = db_opt or (state.db if given and state.db else DEMO_DB)
    state.db = db_opt
    show = not state.quiet
    graph = demo_graph_path()
    with state.open(create=True) as ws:
        held, demo_triples = ws.stats().triples, len(triples_in_file(graph))
        if held and held != demo_triples:  # never mix the demo into a user's graph
            raise ConfigError(
                f"{db_opt} holds another graph ({held:,} triples); the demo needs its own "
                "database: give --db a new path (default .kgqa/demo.kuzu)"
            )
        click.echo(f"$ kgqa --db {db_opt} load {graph.name}")
        with progress_line(show) as progress:
            rep = ws.load(graph, on_progress=progress)
        click.echo(f"  {rep.records} records, +{rep.triples_added} triples (now {rep.triples_total})")
        click.echo(f"$ kgqa --db {db_opt} index build --hub-type Paper")
        with progress_line(show) as progress:
            b = ws.build_index(IndexParams(hub_types=("Paper",)), on_progress=progress)
        c = b.counts
        click.echo(
            f"  {b.hubs_rebuilt} hubs rebuilt, {b.hubs_unchanged} unchanged; index: {c.hubs} hubs, "
            f"{c.paths} paths, {c.vectors} vectors [{b.timings.get('total', 0):.1f}s]"
        )
        for question, topic in DEMO_QUESTIONS:
            click.echo(f'\n$ kgqa --db {db_opt} ask "{question}" --topic-entity {topic}')
            answer = ws.ask(question, RetrievalParams(topic_entity=topic, hubs_to_keep=10))
            click.echo(render(answer, max_triples=8))
