"""`kgqa bench generate`: synthetic scholarly graphs with known-answer questions, any size."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from kgqa.synthetic.films import generate_films
from kgqa.synthetic.generator import generate


@click.group()
def bench() -> None:
    """Benchmark inputs (the benchmark itself: `python bench/scale.py`)."""


def _count(text: str) -> int:
    """An integer written plainly or in scientific notation (1e5)."""
    try:
        value = float(text)
    except ValueError:
        raise click.BadParameter(f"not a number: {text!r}") from None
    if value != int(value):
        raise click.BadParameter(f"not a whole number: {text!r}")
    return int(value)


@bench.command("generate")
@click.option(
    "--triples",
    "n_triples",
    required=True,
    metavar="N",
    help="About how many triples (100 .. 2e7; 1e5 and 100000 both work).",
)
@click.option("--seed", default=0, show_default=True, help="Same size and seed, same graph and questions.")
@click.option("--questions", default=100, show_default=True, help="How many known-answer questions.")
@click.option(
    "--out",
    "out_dir",
    default=None,
    metavar="DIR",
    help="Where graph.csv and questions.csv go (default: synthetic-N-sS).",
)
@click.option(
    "--domain",
    type=click.Choice(["scholarly", "films"]),
    default="scholarly",
    show_default=True,
    help="scholarly: papers as hubs; films: movies as hubs, people, genres, 1-3 hop questions.",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
def generate_cmd(n_triples: str, seed: int, questions: int, out_dir: str | None, domain: str, as_json: bool) -> None:
    """Write a scholarly-style graph of about N triples (papers as hubs; shared venues, authors,
    organisations and benchmarks; paths of 1-4 triples; literals) and questions whose golden
    triples are known. Load it with `kgqa load DIR/graph.csv`, evaluate with
    `kgqa eval DIR/questions.csv`."""
    n = _count(n_triples)
    make = generate_films if domain == "films" else generate
    prefix = "films" if domain == "films" else "synthetic"
    report = make(out_dir or f"{prefix}-{n}-s{seed}", n, seed=seed, questions=questions)
    if as_json:
        click.echo(json.dumps({k: str(v) if k.endswith("_file") else v for k, v in asdict(report).items()}))
        return
    click.echo(
        f"wrote {report.graph_file}: {report.triples} triples, {report.papers} {'movies' if domain == 'films' else 'papers'}, "
        f"{report.entities} entities (non-literal)"
    )
    click.echo(
        f"wrote {report.questions_file}: {report.questions} questions "
        f"({', '.join(f'{k} {v}' for k, v in report.by_kind.items())})"
    )
