"""The `kgqa` command: a thin client of the kgqa library. KgqaError -> message and exit code, here only."""

from __future__ import annotations

import sys

import click

from kgqa.errors import KgqaError
from kgqa_cli.commands import ask, bench, cypher, demo, evaluate, graph, index, pg, seeds, serve, sql, triples
from kgqa_cli.context import CliState


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="KGQA_DB", default=None, metavar="PATH",
              help="Database file (default: $KGQA_DB or .kgqa/graph.kuzu).")
@click.option("-q", "--quiet", is_flag=True, help="No progress or status output on stderr.")
@click.option("--trace", is_flag=True, help="Print each query's name, parameters and time to stderr.")
@click.version_option(package_name="hublink-kgqa")
@click.pass_context
def cli(ctx: click.Context, db: str | None, quiet: bool, trace: bool) -> None:
    """HubLink: sourced answers from a knowledge graph, inside embedded Kùzu."""
    ctx.obj = CliState(db, quiet, trace)


cli.add_command(graph.init)
cli.add_command(graph.load)
cli.add_command(graph.stats)
cli.add_command(index.index)
cli.add_command(triples.triples)
cli.add_command(ask.ask)
cli.add_command(demo.demo)
cli.add_command(evaluate.eval_group)
cli.add_command(pg.pg)
cli.add_command(sql.sql)
cli.add_command(cypher.cypher)
cli.add_command(seeds.build_kg)
cli.add_command(bench.bench)
cli.add_command(serve.serve)


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
