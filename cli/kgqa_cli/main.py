"""The `kgqa` command: a thin client of the kgqa library. KgqaError -> message and exit code, here only."""

from __future__ import annotations

import sys

import click

from kgqa.errors import KgqaError
from kgqa_cli.context import CliState
from kgqa_cli.lazy import LazyCommand, LazyGroup

#: Every command: its module (imported when the command runs) and the line `kgqa --help` shows.
#: tests/unit/test_lazy_cli.py checks each line against the command's own docstring.
COMMANDS = {
    "init": LazyCommand("kgqa_cli.commands.graph:init", "Create a HubLink database (nothing to start: embedded Kùzu)."),
    "load": LazyCommand(
        "kgqa_cli.commands.graph:load", "Load triples from FILE (ORKG JSON, CSV/TSV, N-Triples, Turtle)."
    ),
    "stats": LazyCommand("kgqa_cli.commands.graph:stats", "Size and shape of the stored graph."),
    "graph": LazyCommand(
        "kgqa_cli.commands.graph_layout:graph_group",
        "How HubLink reads your graph: `kgqa graph describe [--mapping kgqa.toml]`.",
    ),
    "index": LazyCommand("kgqa_cli.commands.index:index", "Build and inspect the HubLink index."),
    "triples": LazyCommand(
        "kgqa_cli.commands.triples:triples",
        "Add or delete triples; the hubs they touch are marked dirty for `kgqa index update --dirty`.",
    ),
    "ask": LazyCommand(
        "kgqa_cli.commands.ask:ask",
        "Answer QUESTION from the graph, citing the hubs (e.g. papers) each claim comes from.",
    ),
    "demo": LazyCommand(
        "kgqa_cli.commands.demo:demo",
        "Run the demo end to end: load -> index build -> ask (offline mode, nothing to start).",
    ),
    "eval": LazyCommand(
        "kgqa_cli.commands.evaluate:eval_group",
        "Evaluate with the thesis's metrics: `kgqa eval QUESTIONS.csv`, then `kgqa eval report`.",
    ),
    "pg": LazyCommand(
        "kgqa_cli.commands.pg:pg",
        "A local PostgreSQL with pgvector under the data directory (.kgqa/pg/): no setup, Unix socket only.",
    ),
    "sql": LazyCommand(
        "kgqa_cli.commands.sql:sql",
        "DuckDB with kgqa_ask(question), kgqa_retrieve(question, k), kgqa_hubs(question, k), ...",
    ),
    "cypher": LazyCommand(
        "kgqa_cli.commands.cypher:cypher",
        "Cypher with kgqa_answer(q), kgqa_sources(q), kgqa_retrieve_triples(q, k) and kgqa_rank_hubs(q, k).",
    ),
    "build-kg": LazyCommand(
        "kgqa_cli.commands.seeds:build_kg",
        "Build a knowledge graph from text FILES (KG-RAG): facts with triple hypernodes ...",
    ),
    "bench": LazyCommand(
        "kgqa_cli.commands.bench:bench", "Benchmark inputs (the benchmark itself: `python bench/scale.py`)."
    ),
    "model": LazyCommand(
        "kgqa_cli.commands.model:model", "The embedding model: export it to ONNX once, show the backend and the cache."
    ),
    "serve": LazyCommand(
        "kgqa_cli.commands.serve:serve", "Keep the database open read-only with the model loaded and answer over HTTP."
    ),
}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    envvar="KGQA_DB",
    default=None,
    metavar="PATH",
    help="Database file (default: $KGQA_DB or .kgqa/graph.kuzu).",
)
@click.option(
    "--index",
    "index",
    envvar="KGQA_INDEX",
    default=None,
    metavar="NAME",
    help="The index's name in Postgres (default: $KGQA_INDEX, else the database file's stem).",
)
@click.option(
    "--memory",
    default=None,
    metavar="SIZE",
    help="Memory ceiling of this command, e.g. 3G or 1536M (default: $KGQA_MEMORY, else min(3 GiB, 40% of RAM)).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress or status output on stderr.")
@click.option("--trace", is_flag=True, help="Print each query's name, parameters and time to stderr.")
@click.version_option(package_name="hublink-kgqa")
@click.pass_context
def cli(ctx: click.Context, db: str | None, index: str | None, memory: str | None, quiet: bool, trace: bool) -> None:
    """HubLink: sourced answers from a knowledge graph, inside embedded Kùzu."""
    ctx.obj = CliState(db, quiet, trace, index=index, memory=memory)


def main() -> None:
    """Entry point: run the CLI, turning library errors into one line on stderr and an exit code."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except KgqaError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
