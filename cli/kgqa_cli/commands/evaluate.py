"""`kgqa eval QUESTIONS.csv` runs a question set; `kgqa eval report RUN QUESTIONS` scores it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from kgqa.embeddings import get_embedder
from kgqa.errors import BatchError, ConfigError
from kgqa.evaluation.dataset import read_questions
from kgqa.evaluation.report import evaluate, format_table, format_text_table, query_scores, write_html, write_scores
from kgqa.evaluation.runner import read_run, run_questions
from kgqa.evaluation.text_metrics import TextScorer
from kgqa.indexing.readiness import require_index
from kgqa.retrieval.options import AskOptions, params_from_options
from kgqa.retrieval.registry import index_parts
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import retrieval_options
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
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Run file (JSON lines; default runs/<questions>-<strategy or retriever>.jsonl). Re-running resumes it.",
)
@retrieval_options(omit=("topic_entity",))  # each question brings its own
@click.option("--limit", type=int, default=None, help="Only the first N questions.")
@click.option("--keep-going", is_flag=True, help="Exit 0 when some (not all) questions failed.")
@click.option("--no-topic", is_flag=True, help="Ask without the questions' topic entities (the system links them).")
@pass_state
def run(
    state: CliState,
    questions: str,
    out: str | None,
    options: AskOptions,
    limit: int | None,
    keep_going: bool,
    no_topic: bool = False,
) -> None:
    """Answer every question of QUESTIONS (thesis CSV format) and write one JSON line each. Stops
    before the first question when the retriever's index is missing; exits non-zero when every
    question failed, or when some failed (unless --keep-going)."""
    if limit is not None and limit < 0:
        raise ConfigError(f"--limit must be >= 0, got {limit}")
    qs = read_questions(questions)[:limit]
    params = params_from_options(options)
    retriever, llm = options.retriever, options.llm
    name = options.strategy if retriever == "hublink" else retriever
    out_path = Path(out or f"runs/{Path(questions).stem}-{name}.jsonl")
    info: dict[str, Any] = {
        "retriever": retriever,
        "llm_mode": llm,
        "strategy_requested": options.strategy,
        "scoring": params.scoring,
    }
    if no_topic:
        info["topic_entities"] = "not given"
    if params.extra:
        info["retriever_params"] = params.extra
    with state.open(read_only=True) as ws, progress_line(not state.quiet) as progress:
        require_index(ws.store, ws.vstore, ws.embedder.name, retriever, index_parts(retriever))  # before any question
        load_seconds = ws.warm_up()  # the model loads once per process; not charged to the first question

        def ask(q):
            return ws.ask(
                q.question,
                params,
                llm=llm,
                retriever=retriever,
                token_budget=options.token_budget,
                topic_entity=None if no_topic else q.topic_entity,
            )

        summary = run_questions(qs, ask, out_path, info, on_progress=progress)
    click.echo(
        f"{out_path}: {summary.answered} answered, {summary.failed} failed, "
        f"{summary.done_before} already done ({llm} mode); model loaded in {load_seconds:.1f}s"
    )
    if llm != "offline":
        n = max(summary.answered, 1)
        usage = {
            "total_tokens": summary.llm_tokens,
            "calls": summary.llm_calls,
            "cache_hits": summary.llm_cache_hits,
            "estimated_cost_usd": summary.llm_cost_usd,
        }
        click.echo(f"LLM: {usage_line(usage)}; {summary.llm_tokens / n:,.0f} tokens per question answered")
    tried = summary.answered + summary.failed
    if summary.failed and (summary.failed == tried or not keep_going):
        raise BatchError(
            f"{summary.failed} of {tried} questions failed (their errors are in {out_path})"
            + ("" if summary.failed == tried else "; --keep-going accepts a partial run")
        )


@eval_group.command("report")
@click.argument("run_file", type=click.Path(dir_okay=False))
@click.argument("questions", type=click.Path(dir_okay=False))
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="HTML report with plots (default: next to the run file).",
)
@click.option("--sql", default=None, help="SQL over the views `scores` and `run` (DuckDB).")
@click.option("--no-text", is_flag=True, help="Skip the answer-text metrics (they load the embedding model).")
@pass_state
def report(
    state: CliState, run_file: str, questions: str, html_path: str | None, sql: str | None, no_text: bool
) -> None:
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
    page = write_html(
        ev, Path(html_path or run_path.with_suffix(".html")), f"HubLink evaluation: {run_path.name}", mode
    )
    click.echo(f"report: {page}\nper-question scores: {scores}")
