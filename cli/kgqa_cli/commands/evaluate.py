"""`kgqa eval QUESTIONS.csv` runs a question set; `kgqa eval report RUN QUESTIONS` scores it."""

from __future__ import annotations

from pathlib import Path

import click

from kgqa.config import STRATEGIES, RetrievalParams
from kgqa.errors import BatchError, ConfigError
from kgqa.evaluation.dataset import read_questions
from kgqa.evaluation.report import evaluate, format_table, format_text_table, query_scores, write_html, write_scores
from kgqa.embeddings import get_embedder
from kgqa.evaluation.runner import read_run, run_questions
from kgqa.evaluation.text_metrics import TextScorer
from kgqa.indexing.readiness import require_index
from kgqa.llm.registry import PROVIDERS
from kgqa.retrieval.registry import RETRIEVERS
from kgqa_cli.commands.seeds import parse_params
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.progress import progress_line
from kgqa_cli.usage import usage_line


class _DefaultToRun(click.Group):
    """A group whose first argument, when it is not a subcommand, is handed to `run`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


@click.group("eval", cls=_DefaultToRun)
def eval_group() -> None:
    """Evaluate with the thesis's metrics: `kgqa eval QUESTIONS.csv`, then `kgqa eval report`."""


@eval_group.command("run")
@click.argument("questions", type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Run file (JSON lines; default runs/<questions>-<strategy or retriever>.jsonl). Re-running resumes it.")
@click.option("--strategy", type=click.Choice(STRATEGIES), default="traversal", show_default=True)
@click.option("--retriever", type=click.Choice(sorted(RETRIEVERS)), default="hublink", show_default=True)
@click.option("--llm", type=click.Choice(sorted(PROVIDERS)), default="offline", show_default=True)
@click.option("--token-budget", type=int, default=None, metavar="N", help="At most N LLM tokens per question.")
@click.option("--hubs", "hubs_to_keep", type=int, default=None)
@click.option("--paths-per-hub", type=int, default=None)
@click.option("--diversity-penalty", type=float, default=None)
@click.option("--alpha", "path_weight_alpha", type=float, default=None)
@click.option("--max-level", "max_retrieval_level", type=int, default=None)
@click.option("--no-components", is_flag=True)
@click.option("--no-triple-filter", is_flag=True)
@click.option("--scoring", type=click.Choice(["coverage", "thesis"]), default=None,
              help="Path and hub scoring: coverage (default) or the thesis's weighted mean.")
@click.option("--limit", type=int, default=None, help="Only the first N questions.")
@click.option("--param", "retriever_params", multiple=True, metavar="KEY=VALUE",
              help="A retriever parameter, e.g. top_n=150 (difar), k=3 (simgrag); repeatable.")
@click.option("--keep-going", is_flag=True, help="Exit 0 when some (not all) questions failed.")
@pass_state
def run(state: CliState, questions: str, out: str | None, strategy: str, retriever: str, llm: str,
        token_budget: int | None, hubs_to_keep: int | None, paths_per_hub: int | None, diversity_penalty: float | None,
        path_weight_alpha: float | None, max_retrieval_level: int | None, no_components: bool,
        no_triple_filter: bool, scoring: str | None, limit: int | None, retriever_params: tuple[str, ...],
        keep_going: bool) -> None:
    """Answer every question of QUESTIONS (thesis CSV format) and write one JSON line each. Stops
    before the first question when the retriever's index is missing; exits non-zero when every
    question failed, or when some failed (unless --keep-going)."""
    if limit is not None and limit < 0:
        raise ConfigError(f"--limit must be >= 0, got {limit}")
    qs = read_questions(questions)[:limit]
    params = RetrievalParams().with_overrides(
        strategy=strategy, hubs_to_keep=hubs_to_keep, paths_per_hub=paths_per_hub,
        diversity_penalty=diversity_penalty, path_weight_alpha=path_weight_alpha,
        max_retrieval_level=max_retrieval_level, use_components=False if no_components else None,
        filter_output_triples=False if no_triple_filter else None, scoring=scoring, extra=parse_params(retriever_params) or None)
    name = strategy if retriever == "hublink" else retriever
    out_path = Path(out or f"runs/{Path(questions).stem}-{name}.jsonl")
    info = {"retriever": retriever, "llm_mode": llm, "strategy_requested": strategy, "scoring": params.scoring}
    if params.extra:
        info["retriever_params"] = params.extra
    with state.open() as ws, progress_line(not state.quiet) as progress:
        require_index(ws.store, ws.vstore, ws.embedder.name, retriever)  # before any question
        load_seconds = ws.warm_up()  # the model loads once per process; not charged to the first question

        def ask(q):
            return ws.ask(q.question, params.with_overrides(topic_entity=q.topic_entity), llm=llm,
                          retriever=retriever, token_budget=token_budget)
        summary = run_questions(qs, ask, out_path, info, on_progress=progress)
    click.echo(f"{out_path}: {summary.answered} answered, {summary.failed} failed, "
               f"{summary.done_before} already done ({llm} mode); model loaded in {load_seconds:.1f}s")
    if llm != "offline":
        n = max(summary.answered, 1)
        usage = {"total_tokens": summary.llm_tokens, "calls": summary.llm_calls,
                 "cache_hits": summary.llm_cache_hits, "estimated_cost_usd": summary.llm_cost_usd}
        click.echo(f"LLM: {usage_line(usage)}; {summary.llm_tokens / n:,.0f} tokens per question answered")
    tried = summary.answered + summary.failed
    if summary.failed and (summary.failed == tried or not keep_going):
        raise BatchError(f"{summary.failed} of {tried} questions failed (their errors are in {out_path})"
                         + ("" if summary.failed == tried else "; --keep-going accepts a partial run"))


@eval_group.command("report")
@click.argument("run_file", type=click.Path(dir_okay=False))
@click.argument("questions", type=click.Path(dir_okay=False))
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="HTML report with plots (default: next to the run file).")
@click.option("--sql", default=None, help="SQL over the views `scores` and `run` (DuckDB).")
@click.option("--no-text", is_flag=True, help="Skip the answer-text metrics (they load the embedding model).")
@pass_state
def report(state: CliState, run_file: str, questions: str, html_path: str | None, sql: str | None, no_text: bool) -> None:
    """Score RUN_FILE against QUESTIONS: retrieval and answer-text tables, an HTML report, optional SQL."""
    records = read_run(run_file)
    qs = read_questions(questions)
    scorer = None
    if not no_text and any((q.extra.get("golden_answer") or "").strip() for q in qs):
        scorer = TextScorer(get_embedder(state.settings().embedding_model).embed)
    ev = evaluate(records, qs, scorer)
    modes = sorted({str(r.get("llm_mode", r.get("mode", "?"))) for r in records})
    mode = ",".join(modes)
    run_path = Path(run_file)
    scores = write_scores(ev, run_path.with_suffix(".scores.jsonl"))
    if sql:
        cols, rows = query_scores(scores, run_path, sql)
        click.echo("\t".join(cols))
        for row in rows:
            click.echo("\t".join("" if v is None else str(v) for v in row))
        return
    click.echo(format_table(ev, mode))
    if ev.text:
        click.echo(format_text_table(ev, mode) + "\n")
    page = write_html(ev, Path(html_path or run_path.with_suffix(".html")), f"HubLink evaluation: {run_path.name}", mode)
    click.echo(f"report: {page}\nper-question scores: {scores}")
