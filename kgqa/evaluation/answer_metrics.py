"""Answer-entity metrics for question sets that list their answers (an `answers` column: a list of
labels, as `kgqa bench generate --domain films` writes): Hits@1 (the first item of the structured
`result` is a right answer) and answer recall in the retrieved triples (the share of the answers some
retrieved triple names as a whole element)."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import Any

ANSWER_METRICS = ("hits_at_1", "answer_recall")
ANSWER_LABELS = {"hits_at_1": "Hits@1", "answer_recall": "Ans. in triples"}


def answers_of(extra: dict[str, str]) -> list[str] | None:
    """The question's answer labels, or None when the set lists none."""
    text = (extra.get("answers") or "").strip()
    if not text:
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return [text]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return [str(value)]


def _norm(text: Any) -> str:
    return re.sub(r"\s+", " ", str(text)).strip().lower()


def hits_at_1(result: dict[str, Any] | None, answers: Sequence[str]) -> float:
    """1.0 when the first item of the answer's result (else its value) is one of the answers."""
    if not result:
        return 0.0
    items = result.get("items") or []
    first = items[0] if items else result.get("value")
    if first is None:
        return 0.0
    return 1.0 if _norm(first) in {_norm(a) for a in answers} else 0.0


def _elements(triple: str) -> set[str]:
    """A canonical triple string's subject and object, each with and without its id."""
    inner = triple.strip()[1:-1] if triple.startswith("(") else triple
    parts = [p.strip() for p in inner.split(", ")]
    out: set[str] = set()
    for part in (parts[0], ", ".join(parts[2:])) if len(parts) >= 3 else parts:
        out.add(_norm(part))
        if ":" in part:
            out.add(_norm(part.split(":", 1)[1]))
    return out


def answer_recall(triples: Sequence[str], answers: Sequence[str]) -> float:
    """The share of the answers that a retrieved triple names as its subject or object."""
    if not answers:
        return 1.0
    named: set[str] = set()
    for t in triples:
        named |= _elements(t)
    return sum(1 for a in answers if _norm(a) in named) / len(answers)


def score_answers(record: dict[str, Any], answers: Sequence[str]) -> dict[str, float]:
    """Both answer metrics for one run record."""
    return {
        "hits_at_1": hits_at_1(record.get("result"), answers),
        "answer_recall": answer_recall(record.get("triples") or [], answers),
    }


def answer_table(rows: list[dict[str, Any]], dims: Sequence[str] = ("hops", "form")) -> str:
    """Hits@1, answer recall and p50 seconds overall and per hop count and question form (rows that
    carry answer metrics only; empty string when none do)."""
    scored = [r for r in rows if "hits_at_1" in r]
    if not scored:
        return ""
    head = f"{'':32s}{'n':>5s}" + "".join(f"{ANSWER_LABELS[m]:>16s}" for m in ANSWER_METRICS) + f"{'p50 s':>10s}"
    lines = ["answers:", head, _line("all", scored)]
    for dim in dims:
        groups: dict[str, list[dict[str, Any]]] = {}
        for r in scored:
            groups.setdefault(str(r.get(dim, "")), []).append(r)
        if len(groups) <= 1 and "" in groups:
            continue
        lines.append(f"by {dim}:")
        for key in sorted(groups, key=lambda k: (len(k), k)):
            lines.append(_line(f"  {key}", groups[key]))
    return "\n".join(lines)


def _line(name: str, rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    cells = "".join(f"{sum(r[m] for r in rows) / n:>16.3f}" for m in ANSWER_METRICS)
    times = sorted(float(r.get("runtime_s", 0.0)) for r in rows)
    return f"{name[:32]:32s}{n:>5d}{cells}{times[len(times) // 2]:>10.3f}"
