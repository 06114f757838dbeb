"""`kgqa ask`: answer a question with sources and supporting triples."""

from __future__ import annotations

import json

import click

from kgqa.retrieval.options import AskOptions, params_from_options
from kgqa.types import Answer
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import retrieval_options, store_options
from kgqa_cli.usage import usage_line


def render(answer: Answer, max_triples: int = 15) -> str:
    """The human-readable form of an answer."""
    lines = [answer.answer, ""]
    if answer.sources:
        lines.append("Sources:")
        lines += [f"  [{s.n}] {s.label} ({s.hub_id})" for s in answer.sources]
    if answer.triples:
        lines.append("Supporting triples:")
        lines += [f"  {t}" for t in answer.triples[:max_triples]]
        if len(answer.triples) > max_triples:
            lines.append(f"  ... {len(answer.triples) - max_triples} more (--json shows all)")
    lines.append(
        f"[{answer.strategy} strategy, {answer.mode} mode, {answer.timings.get('total', 0):.2f}s, "
        f"{usage_line(answer.llm_tokens)}]"
    )
    lines += [f"note: {n}" for n in answer.notes]
    return "\n".join(lines)


@click.command()
@click.argument("question")
@retrieval_options()
@click.option(
    "--json", "as_json", is_flag=True, help="Output answer, sources, triples, hubs, timings, llm_tokens, served_by."
)
@click.option("--no-server", is_flag=True, help="Answer in this process even when `kgqa serve` runs for the database.")
@store_options
@pass_state
def ask(state: CliState, question: str, options: AskOptions, as_json: bool, no_server: bool) -> None:
    """Answer QUESTION from the graph, citing the hubs (e.g. papers) each claim comes from. A running
    `kgqa serve` for the same database answers it (much faster); otherwise this process does."""
    from kgqa.service.client import answer_from_reply, ask_running_service

    params = params_from_options(options)  # checked here either way, so bad values fail alike
    settings = state.settings()
    reply = (
        None
        if no_server
        else ask_running_service(settings.db_path, question, options.as_dict(), state.info, store=settings.store)
    )
    if reply is None:
        with state.open(read_only=True) as ws:
            answer = ws.ask(
                question, params, llm=options.llm, retriever=options.retriever, token_budget=options.token_budget
            )
        reply = {**answer.as_dict(), "served_by": "in-process"}
    click.echo(json.dumps(reply, indent=2, ensure_ascii=False) if as_json else render(answer_from_reply(reply)))
