"""Key reads against list reads (issue 30): the question-time graph reads that Kùzu 0.11.3 plans as a scan
of the whole graph when given a list of ids (exact answers' matching and grouping, entities by id,
relation-chain hops) read as lists only (as before) against `GraphStore.by_key`'s choice, which takes
the one-key-per-read forms where the ids are few against the table's size. Every question is asked in both modes, alternately (the machine's drift falls on both),
in one process; prints p50 / p95 / mean per strategy and mode, and how many answers differ in their items.

    python bench/key_reads.py --db .bench-scale/n100000/kuzu/graph.kuzu \
        --questions .bench-scale/n100000/questions.csv [--limit 100]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.evaluation.dataset import read_questions
from kgqa.graph import store as store_mod

#: GRAPH_SCAN_ROW_S per mode: 0 makes `by_key` never pick key reads (the reads before issue 30's change);
#: None keeps the store's default (its choice by the table's size: what a question gets).
MODES = {"list reads only (before)": 0.0, "by_key's choice (now)": None}


def _pcts(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
    return f"{statistics.median(xs) * 1000:.0f} | {p95 * 1000:.0f} | {sum(xs) / len(xs) * 1000:.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("--questions", required=True)
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    ws = Workspace(Settings.from_env(args.db), read_only=True)
    ws.warm_up()
    questions = read_questions(args.questions)[: args.limit or None]
    ws.ask(questions[0].question, strategy="direct")
    default = store_mod.GRAPH_SCAN_ROW_S
    lat: dict[tuple[str, str], list[float]] = {}
    differ = 0
    load = os.getloadavg()[0]
    for q in questions:
        for strategy in ("direct", "traversal"):
            items = []
            for mode, scan_row_s in MODES.items():
                store_mod.GRAPH_SCAN_ROW_S = default if scan_row_s is None else scan_row_s
                start = time.perf_counter()
                a = ws.ask(q.question, strategy=strategy, topic_entity=q.topic_entity)
                lat.setdefault((strategy, mode), []).append(time.perf_counter() - start)
                items.append(sorted(map(str, (a.result or {}).get("items") or [])) + sorted(map(str, a.triples)))
            differ += items[0] != items[1]
    store_mod.GRAPH_SCAN_ROW_S = default
    ws.close()
    print(
        f"{len(questions)} questions, {platform.machine()} {os.cpu_count()} cores, load {load:.1f} at start, "
        f"offline mode, embedder {os.environ.get('KGQA_EMBEDDER', 'auto')}\n"
    )
    print("| strategy | reads | p50 ms | p95 ms | mean ms |\n|---|---|---|---|---|")
    for (strategy, mode), xs in lat.items():
        print(f"| {strategy} | {mode} | {_pcts(xs)} |")
    print(f"\nanswers whose items or triples differ between the two: {differ} of {2 * len(questions)}")


if __name__ == "__main__":
    main()
