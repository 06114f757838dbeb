"""The CLI side of the seed-paper retrievers: `kgqa index build --retriever difar|simgrag|coe` (the label
index) and `kgqa build-kg FILES...` (KG-RAG's graph from text). `--param KEY=VALUE`, the retriever
parameters of `ask` and `eval`, is one of the retrieval options (kgqa_cli/options.py)."""

from __future__ import annotations

import json

import click

from kgqa.llm.registry import PROVIDERS
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.progress import progress_line
from kgqa_cli.usage import usage_line


def build_label_index(state: CliState, retriever: str, *, rebuild: bool, as_json: bool) -> None:
    """Build or update the label index of `retriever` and report it."""
    with state.open() as ws, progress_line(not state.quiet) as progress:
        report = ws.build_label_index(retriever, rebuild=rebuild, on_progress=progress)
        from kgqa.indexing.label_index import label_index_counts

        counts = label_index_counts(ws.store)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "retriever": retriever,
                    "parts": [p.__dict__ for p in report.parts],
                    "counts": counts,
                    "seconds": round(report.seconds, 3),
                },
                indent=2,
            )
        )
        return
    if report.nothing_to_do:
        click.echo(f"{retriever} index up to date: nothing rebuilt")
    for p in report.parts:
        if not p.unchanged:
            click.echo(
                f"{p.part}: {p.texts} unique texts ({p.embedded} embedded, {p.reused} reused, "
                f"{p.removed} removed), {p.links} links"
            )
    click.echo(
        f"label index: {counts['triple_texts']} triple texts, {counts['label_texts']} entity labels, "
        f"{counts['predicate_texts']} predicates [{report.seconds:.1f}s]"
    )


@click.command("build-kg")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--llm",
    type=click.Choice(sorted(PROVIDERS)),
    default="offline",
    show_default=True,
    help="offline: rule-based extraction (subject-verb-object patterns, no LLM); anthropic: the LLM "
    "extracts facts and qualifiers (needs ANTHROPIC_API_KEY).",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@pass_state
def build_kg(state: CliState, files: tuple[str, ...], llm: str, as_json: bool) -> None:
    """Build a knowledge graph from text FILES (KG-RAG): facts with triple hypernodes for qualified
    facts and provenance to each sentence, added to the graph of --db."""
    with state.open(create=True) as ws, progress_line(not state.quiet) as progress:
        report = ws.build_kg(list(files), llm=llm, on_progress=progress)
    if as_json:
        click.echo(json.dumps(report.__dict__, indent=2))
        return
    click.echo(
        f"{report.files} file(s), {report.passages} sentences: {report.facts} facts "
        f"({report.qualified_facts} qualified -> {report.hypernodes} triple hypernodes); "
        f"+{report.entities_added} entities, +{report.triples_added} triples [{report.extractor}, "
        f"{report.seconds:.1f}s]"
    )
    if report.llm:
        click.echo(f"LLM: {usage_line(report.llm)}")
    click.echo("next: `kgqa index build --retriever coe` (or difar, simgrag), then `kgqa ask ... --retriever coe`")
