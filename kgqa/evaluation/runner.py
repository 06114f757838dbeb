"""Runs a question set through a retriever and writes one JSON line per question; resumable."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgqa.errors import InputError, KgqaError
from kgqa.evaluation.dataset import Question
from kgqa.progress import ProgressFn, no_progress
from kgqa.types import Answer


@dataclass
class RunSummary:
    """What one eval run did."""

    out: Path
    done_before: int
    answered: int
    failed: int
    llm_tokens: int = 0  # over the questions answered in this run
    llm_calls: int = 0
    llm_cache_hits: int = 0
    llm_cost_usd: float = 0.0


def finished_uids(path: Path) -> set[str]:
    """Uids already in a run file (a torn last line from an interrupted run is ignored)."""
    if not path.exists():
        return set()
    done = set()
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                done.add(json.loads(line)["uid"])
            except (json.JSONDecodeError, KeyError):
                continue
    return done


def run_questions(
    questions: list[Question],
    ask: Callable[[Question], Answer],
    out: Path,
    run_info: dict[str, Any],
    on_progress: ProgressFn = no_progress,
) -> RunSummary:
    """Answer every question not yet in `out`, appending one line each (flushed per question)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    done = finished_uids(out)
    todo = [q for q in questions if q.uid not in done]
    answered = failed = 0
    counts = {"llm_tokens": 0, "llm_calls": 0, "llm_cache_hits": 0}
    cost_usd = 0.0
    if out.exists() and out.stat().st_size and not out.read_bytes().endswith(b"\n"):
        with out.open("a", encoding="utf-8") as fh:
            fh.write("\n")  # end the line torn by an interrupted run before appending
    with out.open("a", encoding="utf-8") as fh:
        for i, q in enumerate(todo, start=1):
            start = time.perf_counter()
            record: dict[str, Any] = {"uid": q.uid, "question": q.question}
            try:
                a = ask(q)
                record.update(
                    answer=a.answer,
                    triples=a.triples,
                    llm_tokens=a.llm_tokens.get("total_tokens", 0),
                    sources=[s.hub_id for s in a.sources],
                    strategy=a.strategy,
                    mode=a.mode,
                    llm_calls=a.llm_tokens.get("calls", 0),
                    llm_cache_hits=a.llm_tokens.get("cache_hits", 0),
                    llm_cost_usd=a.llm_tokens.get("estimated_cost_usd", 0.0),
                    result=a.result,
                )
                for k in counts:
                    counts[k] += record[k] or 0
                cost_usd += record["llm_cost_usd"] or 0
                answered += 1
            except KgqaError as exc:
                if isinstance(exc, InputError) and not q.question:
                    raise
                record.update(answer="", triples=[], llm_tokens=0, error=str(exc))
                failed += 1
            record["runtime_s"] = round(time.perf_counter() - start, 4)
            record.update(run_info)
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            fh.flush()
            on_progress("questions", i, len(todo))
    return RunSummary(out, len(done), answered, failed, llm_cost_usd=cost_usd, **counts)


def read_run(path: str | Path) -> list[dict[str, Any]]:
    """The records of a run file (last occurrence of a uid wins; a line torn by an interrupted
    write is skipped; a well-formed line without a uid is an error)."""
    path = Path(path)
    if not path.is_file():
        raise InputError("no such run file", source=str(path))
    records: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if not isinstance(rec, dict) or "uid" not in rec:
                raise InputError("not a run record (no uid)", source=str(path), line=n)
            records[rec["uid"]] = rec
    return list(records.values())
