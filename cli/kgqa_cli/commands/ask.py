"""`kgqa ask`: answer a question with sources and supporting triples."""

from __future__ import annotations

import json

import click

from kgqa.config import STRATEGIES
from kgqa.llm.registry import PROVIDERS
from kgqa.retrieval.base import Answer
from kgqa.retrieval.options import AskOptions, params_from_options
from kgqa.retrieval.registry import RETRIEVERS
from kgqa_cli.commands.seeds import parse_params
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import store_options
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
    lines.append(f"[{answer.strategy} strategy, {answer.mode} mode, {answer.timings.get('total', 0):.2f}s, "
                 f"{usage_line(answer.llm_tokens)}]")
    lines += [f"note: {n}" for n in answer.notes]
    return "\n".join(lines)


@click.command()
@click.argument("question")
@click.option("--strategy", type=click.Choice(STRATEGIES), default="traversal", show_default=True)
@click.option("--topic-entity", default=None, metavar="ID|LABEL",
              help="Entry point of the traversal strategy (id, or a label that names one entity).")
@click.option("--hubs", "hubs_to_keep", type=int, default=None, help="Hubs to keep (default 30).")
@click.option("--paths-per-hub", type=int, default=None, help="Paths per hub (default 10).")
@click.option("--diversity-penalty", type=float, default=None, help="Default 0.05.")
@click.option("--alpha", "path_weight_alpha", type=float, default=None, help="Path weight α (default 5).")
@click.option("--max-level", "max_retrieval_level", type=int, default=None, help="Traversal levels (default 1).")
@click.option("--no-components", is_flag=True, help="Search with the question embedding only.")
@click.option("--no-triple-filter", is_flag=True, help="Return all triples of the kept paths.")
@click.option("--scoring", type=click.Choice(["coverage", "thesis"]), default=None,
              help="Path and hub scoring: coverage (default) or the thesis's weighted mean.")
@click.option("--llm", type=click.Choice(sorted(PROVIDERS)), default="offline", show_default=True,
              help="offline: no LLM, 0 tokens; anthropic: the LLM roles (needs ANTHROPIC_API_KEY).")
@click.option("--token-budget", type=int, default=None, metavar="N",
              help="At most N LLM tokens for this question (default: $KGQA_LLM_TOKEN_BUDGET or none).")
@click.option("--retriever", type=click.Choice(sorted(RETRIEVERS)), default="hublink", show_default=True)
@click.option("--param", "retriever_params", multiple=True, metavar="KEY=VALUE",
              help="A retriever parameter, e.g. top_n=150 (difar), k=3 (simgrag), max_hops=2 (coe); repeatable.")
@click.option("--json", "as_json", is_flag=True,
              help="Output answer, sources, triples, hubs, timings, llm_tokens, served_by.")
@click.option("--no-server", is_flag=True, help="Answer in this process even when `kgqa serve` runs for the database.")
@store_options
@pass_state
def ask(state: CliState, question: str, strategy: str, topic_entity: str | None, hubs_to_keep: int | None,
        paths_per_hub: int | None, diversity_penalty: float | None, path_weight_alpha: float | None,
        max_retrieval_level: int | None, no_components: bool, no_triple_filter: bool, scoring: str | None, llm: str,
        token_budget: int | None, retriever: str, retriever_params: tuple[str, ...], as_json: bool,
        no_server: bool) -> None:
    """Answer QUESTION from the graph, citing the hubs (e.g. papers) each claim comes from. A running
    `kgqa serve` for the same database answers it (much faster); otherwise this process does."""
    from kgqa.service.client import answer_from_reply, ask_running_service

    options = AskOptions(strategy=strategy, topic_entity=topic_entity, hubs=hubs_to_keep, paths_per_hub=paths_per_hub,
                         diversity_penalty=diversity_penalty, alpha=path_weight_alpha, max_level=max_retrieval_level,
                         components=not no_components, triple_filter=not no_triple_filter, scoring=scoring, llm=llm,
                         token_budget=token_budget, retriever=retriever, params=parse_params(retriever_params))
    params = params_from_options(options)   # checked here either way, so bad values fail alike
    settings = state.settings()
    reply = None if no_server else ask_running_service(settings.db_path, question, options.as_dict(), state.info,
                                                           store=settings.store)
    if reply is None:
        with state.open(read_only=True) as ws:
            answer = ws.ask(question, params, llm=llm, retriever=retriever, token_budget=token_budget)
        reply = {**answer.as_dict(), "served_by": "in-process"}
    click.echo(json.dumps(reply, indent=2, ensure_ascii=False) if as_json else render(answer_from_reply(reply)))
