"""Scores a run against its question set: macro averages, breakdowns, text tables, an HTML report
with plots (inline SVG), and a DuckDB view for SQL over the per-question scores."""

from __future__ import annotations

import html
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgqa.errors import InputError
from kgqa.evaluation.answer_metrics import answer_table, answers_of, score_answers
from kgqa.evaluation.dataset import Question
from kgqa.evaluation.metrics import METRIC_NAMES, score_question
from kgqa.evaluation.text_metrics import TextScorer, mean_text, text_table

#: Thesis HubLink (T) on the 44 dev questions (spec §7): o3-mini + text-embedding-3-large.
THESIS_DEV = {
    "recall": 0.782,
    "precision": 0.398,
    "f1": 0.466,
    "hits_at_10": 0.615,
    "map_at_10": 0.427,
    "mrr_at_10": 0.659,
    "em_at_10": 0.444,
    "runtime_s": 158.8,
    "llm_tokens": 71016,
}

LABELS = {
    "recall": "R",
    "precision": "P",
    "f1": "F1",
    "hits_at_10": "Hits@10",
    "map_at_10": "MAP@10",
    "mrr_at_10": "MRR@10",
    "em_at_10": "EM@10",
    "runtime_s": "s/question",
    "llm_tokens": "LLM tokens/q",
}


@dataclass
class Evaluation:
    """Per-question rows and their aggregates."""

    rows: list[dict[str, Any]]
    overall: dict[str, float]
    by: dict[str, dict[str, dict[str, float]]]  # dimension -> value -> metric -> mean
    missing: list[str]  # uids of the question set without a run record
    text: dict[str, float] | None = None  # answer-text metric means (None: no golden answers scored)
    text_by: dict[str, dict[str, float]] | None = None  # retrieval operation -> answer-text means
    text_by_wording: dict[str, dict[str, float]] | None = None  # wording kind -> means (sets with `wording`)


def evaluate(records: list[dict[str, Any]], questions: list[Question], scorer: TextScorer | None = None) -> Evaluation:
    """Score every question that has a run record (macro average over unique uids); with a scorer,
    also the answer texts of the questions that have a golden answer."""
    by_uid = {r["uid"]: r for r in records}
    rows = []
    for q in questions:
        rec = by_uid.get(q.uid)
        if rec is None:
            continue
        s = score_question(rec.get("triples", []), q.golden)
        rows.append(
            {
                "uid": q.uid,
                "question": q.question,
                "retrieval_operation": q.retrieval_operation,
                "use_case": q.use_case,
                "hops": q.hops,
                **s.as_dict(),
                "runtime_s": float(rec.get("runtime_s", 0.0)),
                "llm_tokens": int(rec.get("llm_tokens", 0)),
                "error": rec.get("error", ""),
                "form": q.extra.get("form", ""),
            }
        )
        answers = answers_of(q.extra)
        if answers is not None:  # a set that lists its answers: Hits@1, answer recall in the triples
            rows[-1].update(score_answers(rec, answers))
    overall = _means(rows)
    by = {
        dim: {v: _means(rs) for v, rs in sorted(_group(rows, dim).items())}
        for dim in ("retrieval_operation", "use_case", "hops")
    }
    ev = Evaluation(rows, overall, by, [q.uid for q in questions if q.uid not in by_uid])
    if scorer is not None:
        _score_texts(ev, by_uid, {q.uid: q for q in questions}, scorer)
    return ev


def _score_texts(
    ev: Evaluation, by_uid: dict[str, dict[str, Any]], questions: dict[str, Question], scorer: TextScorer
) -> None:
    """Add the answer-text metrics to the rows of questions with a golden answer."""
    scored = [r for r in ev.rows if (questions[r["uid"]].extra.get("golden_answer") or "").strip()]
    if not scored:
        return
    recs = [by_uid[r["uid"]] for r in scored]
    values = scorer.score(
        [rec.get("answer", "") for rec in recs],
        [questions[r["uid"]].extra["golden_answer"] for r in scored],
        [rec.get("result") for rec in recs],
        [_is_counting(questions[r["uid"]], rec) for r, rec in zip(scored, recs)],
    )
    for r, v in zip(scored, values):
        r.update(v)
    ev.text = mean_text(scored)
    ev.text_by = {op: mean_text(rs) for op, rs in sorted(_group(scored, "retrieval_operation").items())}
    wordings = {r["uid"]: questions[r["uid"]].extra.get("wording", "") for r in scored}
    if any(wordings.values()):
        kinds: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in scored:
            kinds[wordings[r["uid"]] or "-"].append(r)
        ev.text_by_wording = {k: mean_text(rs) for k, rs in sorted(kinds.items())}


def _is_counting(q: Question, rec: dict[str, Any]) -> bool:
    """A counting question: so labelled in the question set (else: our detected operation is count)."""
    if q.retrieval_operation:
        return q.retrieval_operation == "counting"
    return bool(rec.get("result")) and rec["result"].get("operation") == "count"


def format_text_table(ev: Evaluation, mode: str = "") -> str:
    """The answer-text table (empty when the run was scored without golden answers)."""
    if not ev.text:
        return ""
    table = text_table(ev.text, ev.text_by or {}, mode)
    if ev.text_by_wording:  # the same rows per wording kind (lower case, typo, synonym, ...)
        rows = text_table(ev.text, ev.text_by_wording, mode).splitlines()[3:]
        table += "\nby wording:\n" + "\n".join(rows)
    return table


def _group(rows: list[dict[str, Any]], key: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        out[str(r[key])].append(r)
    return out


def _means(rows: list[dict[str, Any]]) -> dict[str, float]:
    if not rows:
        return {}
    keys = list(METRIC_NAMES) + ["runtime_s", "llm_tokens"]
    out = {k: sum(r[k] for r in rows) / len(rows) for k in keys}
    out["n"] = len(rows)
    return out


def format_table(ev: Evaluation, mode: str = "") -> str:
    """The overall table beside the thesis numbers, then the breakdown by retrieval operation."""
    cols = list(METRIC_NAMES) + ["runtime_s", "llm_tokens"]
    head = f"{'':24s}" + "".join(f"{LABELS[c]:>13s}" for c in cols)
    lines = [
        head,
        _row(f"this run{f' ({mode})' if mode else ''} n={ev.overall.get('n', 0):.0f}", ev.overall, cols),
        _row("thesis HubLink (T)", THESIS_DEV, cols),
        "",
    ]
    for dim in ("retrieval_operation", "use_case", "hops"):
        lines.append(f"by {dim}:")
        lines.append(head)
        for value, m in ev.by[dim].items():
            lines.append(_row(f"  {value} (n={m['n']:.0f})", m, cols))
        lines.append("")
    answers = answer_table(ev.rows)
    if answers:
        lines += [answers, ""]
    if ev.missing:
        lines.append(f"{len(ev.missing)} question(s) have no run record yet")
    return "\n".join(lines)


def _row(name: str, m: dict[str, float], cols: list[str]) -> str:
    cells = []
    for c in cols:
        v = m.get(c)
        cells.append(f"{'-':>13s}" if v is None else f"{v:>13.3f}" if c not in ("llm_tokens",) else f"{v:>13.0f}")
    return f"{name[:24]:24s}" + "".join(cells)


def _bars(title: str, items: list[tuple[str, float]], vmax: float = 1.0, fmt: str = "{:.2f}") -> str:
    width, bar_h, left = 560, 18, 170
    h = 30 + bar_h * len(items) + 10
    parts = [
        f'<svg width="{width}" height="{h}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="0" y="16" font-weight="bold">{html.escape(title)}</text>',
    ]
    for i, (label, v) in enumerate(items):
        y = 28 + i * bar_h
        w = 0 if vmax <= 0 else (width - left - 50) * max(v, 0) / vmax
        parts.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end" font-size="12">{html.escape(label)}</text>')
        parts.append(f'<rect x="{left}" y="{y + 2}" width="{w:.1f}" height="{bar_h - 5}" fill="#3b75af"/>')
        parts.append(f'<text x="{left + w + 4:.1f}" y="{y + 13}" font-size="12">{fmt.format(v)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def write_html(ev: Evaluation, path: Path, title: str, mode: str) -> Path:
    """A self-contained HTML report: table, per-operation bars, F1 and Hits@10 distributions."""
    ops = ev.by["retrieval_operation"]
    overall = [(LABELS[m], ev.overall.get(m, 0.0)) for m in METRIC_NAMES]
    thesis = [(LABELS[m], THESIS_DEV[m]) for m in METRIC_NAMES]
    f1_ops = [(op, m["f1"]) for op, m in ops.items()]
    hits_ops = [(op, m["hits_at_10"]) for op, m in ops.items()]
    buckets = [
        (f"{b / 10:.1f}-{(b + 1) / 10:.1f}", sum(1 for r in ev.rows if min(int(r["f1"] * 10), 9) == b))
        for b in range(10)
    ]
    rows = "".join(
        f"<tr><td>{html.escape(r['uid'][:8])}</td><td>{html.escape(r['retrieval_operation'])}</td>"
        f"<td>{html.escape(r['question'])}</td><td>{r['recall']:.2f}</td><td>{r['precision']:.2f}</td>"
        f"<td>{r['f1']:.2f}</td><td>{r['hits_at_10']:.2f}</td><td>{r['runtime_s']:.2f}</td></tr>"
        for r in ev.rows
    )
    doc = f"""<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto}}td,th{{padding:2px 8px;font-size:13px}}
tr:nth-child(even){{background:#f3f3f3}}</style></head><body>
<h1>{html.escape(title)}</h1><p>Mode: <b>{html.escape(mode)}</b>; {ev.overall.get("n", 0):.0f} questions;
mean runtime {ev.overall.get("runtime_s", 0):.2f} s/question; mean LLM tokens {ev.overall.get("llm_tokens", 0):.0f}.</p>
<pre>{html.escape(format_table(ev, mode))}</pre>
{f"<h2>Answer text</h2><pre>{html.escape(format_text_table(ev, mode))}</pre>" if ev.text else ""}
{_bars("This run (macro averages)", overall)}{_bars("Thesis HubLink (T), dev set", thesis)}
{_bars("F1 by retrieval operation", f1_ops)}{_bars("Hits@10 by retrieval operation", hits_ops)}
{
        _bars(
            "Distribution of per-question F1 (questions)",
            [(k, float(v)) for k, v in buckets],
            vmax=max([v for _, v in buckets] + [1]),
            fmt="{:.0f}",
        )
    }
<h2>Questions</h2><table><tr><th>uid</th><th>operation</th><th>question</th><th>R</th><th>P</th><th>F1</th>
<th>Hits@10</th><th>s</th></tr>{rows}</table></body></html>"""
    path.write_text(doc, encoding="utf-8")
    return path


def write_scores(ev: Evaluation, path: Path) -> Path:
    """Per-question scores as JSON lines (for DuckDB's read_json_auto)."""
    with path.open("w", encoding="utf-8") as fh:
        for r in ev.rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    return path


def query_scores(scores_path: Path, run_path: Path, sql: str) -> tuple[list[str], list[tuple]]:
    """Run SQL in DuckDB over views `scores` (per-question metrics) and `run` (the raw run records)."""
    import duckdb

    con = duckdb.connect()
    con.read_json(str(scores_path)).create_view("scores")
    con.read_json(str(run_path)).create_view("run")
    try:
        cur = con.execute(sql)
    except duckdb.Error as exc:
        raise InputError(f"SQL error: {exc}", field="--sql") from exc
    return [d[0] for d in cur.description], cur.fetchall()
