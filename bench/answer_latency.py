"""Question latency with and without the exact answers from the graph (kgqa/answering/exact.py), in one
process, on one machine, in the same run: every question is asked once with the step switched off (the
answer over the retrieved facts alone, as before issue 26) and once with it, alternating, after a warm-up.

    python bench/answer_latency.py --db .kgqa/demo.kuzu bench/user_questions/demo.csv [--limit N]
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import time

import kgqa.api
from kgqa.api import Workspace
from kgqa.config import RetrievalParams, Settings


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("questions")
    ap.add_argument("--db", required=True)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--strategy", default="direct")
    args = ap.parse_args()
    with open(args.questions, encoding="utf-8", newline="") as fh:
        questions = [r["question"] for r in csv.DictReader(fh)]
    if args.limit:
        questions = questions[: args.limit]
    ws = Workspace(Settings(db_path=args.db))
    params = RetrievalParams(strategy=args.strategy)
    exact = kgqa.api.with_exact
    off = lambda answer, *a, **k: answer  # noqa: E731
    ws.ask(questions[0], params)  # model, caches and the catalog loaded once
    times: dict[str, list[float]] = {"before (retrieved facts only)": [], "after (with exact answers)": []}
    for i, q in enumerate(questions):
        order = [("before (retrieved facts only)", off), ("after (with exact answers)", exact)]
        for name, hook in order if i % 2 == 0 else order[::-1]:
            kgqa.api.with_exact = hook  # type: ignore[assignment]
            t = time.perf_counter()
            ws.ask(q, params)
            times[name].append((time.perf_counter() - t) * 1000)
    kgqa.api.with_exact = exact
    ws.close()
    load = os.getloadavg()[0]
    print(f"{len(questions)} questions, {args.strategy} strategy, offline mode; {platform.node()}, load {load:.1f}")
    print(f"{'':32s}{'p50 ms':>9s}{'p95 ms':>9s}{'mean ms':>9s}")
    for name, ts in times.items():
        print(f"{name:32s}{_p(ts, 0.5):9.1f}{_p(ts, 0.95):9.1f}{statistics.mean(ts):9.1f}")
    b, a = times.values()
    print(f"{'p50 difference':32s}{_p(a, 0.5) - _p(b, 0.5):9.1f}")


if __name__ == "__main__":
    main()
