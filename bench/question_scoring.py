"""Scoring of generated questions against a database, shared by the question benches: each question asked
(offline mode unless an LLM is configured, direct strategy, no topic given), its structured result
compared with the answer set, misses printed, then recall and precision of `result.items` per form."""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

from kgqa.api import Workspace
from kgqa.config import RetrievalParams, Settings


def result_values(result: dict) -> set[str]:
    """What a result states, lower-cased: a count's number, else its items or its one value."""
    if result.get("operation") == "count":
        return {str(result.get("value")).lower()}
    items = result.get("items") or ([result["value"]] if result.get("value") is not None else [])
    return {str(i).lower() for i in items}


def score(db: str | Path, asked: list[tuple[str, str, set[str]]]) -> int:
    """Ask every (form, question, answers) on `db` and print the misses and the per-form table."""
    by_form: dict[str, list[tuple[float, float]]] = defaultdict(list)
    start = time.perf_counter()
    with Workspace(Settings(db_path=Path(db)), read_only=True) as ws:
        for form, question, answers in asked:
            answer = ws.ask(question, RetrievalParams(strategy="direct"))
            got, want = result_values(answer.result or {}), {str(a).lower() for a in answers}
            recall, precision = len(got & want) / len(want), (len(got & want) / len(got) if got else 0.0)
            by_form[form].append((recall, precision))
            if recall < 1 or precision < 1:
                print(f"[{form}] {question}\n  want {sorted(want)[:6]}\n  got  {answer.answer[:200]}")
    every = [x for values in by_form.values() for x in values]
    print(
        f"{len(asked)} questions in {time.perf_counter() - start:.0f} s (offline mode, direct strategy): "
        f"recall {sum(r for r, _ in every) / max(len(every), 1):.3f}, "
        f"precision {sum(p for _, p in every) / max(len(every), 1):.3f}"
    )
    print("| form | n | recall | precision |\n|---|---|---|---|")
    for form, values in sorted(by_form.items()):
        n = len(values)
        print(f"| {form} | {n} | {sum(r for r, _ in values) / n:.2f} | {sum(p for _, p in values) / n:.2f} |")
    return 0


def bench_arguments(description: str, seed: int) -> argparse.Namespace:
    """The command line of a bench that writes its own graph: WORKDIR [--lower] [--seed N]."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workdir")
    ap.add_argument("--lower", action="store_true", help="Ask every question in lower case.")
    ap.add_argument("--seed", type=int, default=seed, help="The graph's seed.")
    return ap.parse_args()
