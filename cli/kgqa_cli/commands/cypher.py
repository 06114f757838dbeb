"""`kgqa cypher`: Cypher on the graph with retrieval UDFs (kgqa_rank_hubs, kgqa_retrieve_triples, ...)."""

from __future__ import annotations

import click

from kgqa.frontends.cypher import open_cypher_session
from kgqa.retrieval.options import AskOptions, params_from_options
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import SESSION_OPTIONS, retrieval_options, store_options
from kgqa_cli.repl import run_session
from kgqa_cli.table import FORMATS


@click.command()
@click.option(
    "-c",
    "--command",
    "text",
    default=None,
    metavar="CYPHER",
    help="Run this statement and exit (default: read statements from stdin).",
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@store_options
@retrieval_options(*SESSION_OPTIONS)
@pass_state
@click.pass_context
def cypher(ctx: click.Context, state: CliState, text: str | None, fmt: str, options: AskOptions) -> None:
    """Cypher with kgqa_answer(q), kgqa_sources(q), kgqa_retrieve_triples(q, k) and kgqa_rank_hubs(q, k)."""
    session = open_cypher_session(state.settings(), params_from_options(options), llm=options.llm)
    run_session(session, text, fmt, "cypher")
