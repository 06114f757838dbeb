"""Reading by key against scanning in Kùzu: the direct strategy's fan-out and path reads, both ways, on
one index (bench/results/lookups.md). The two ways must return the same rows.

    python bench/lookups.py --db .bench-scale/n100000/kuzu/graph.kuzu --questions .bench-scale/n100000/questions.csv
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.graph.store import GraphStore


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--questions", required=True)
    ap.add_argument("--count", type=int, default=20)
    args = ap.parse_args()
    ws = Workspace(Settings.from_env(args.db), read_only=True)
    store: GraphStore = ws.store
    store.load_extension("vector")
    with open(args.questions, encoding="utf-8") as f:
        questions = [row["question"] for row in csv.DictReader(f)][: args.count]
    timings: dict[str, list[float]] = {"fan-out scan": [], "fan-out by key": [], "paths scan": [], "paths by key": []}

    def timed(name: str, read: Callable[..., list[list[Any]]], *args: Any) -> list[list[Any]]:
        start = time.perf_counter()
        rows = read(*args)
        timings[name].append(time.perf_counter() - start)
        return rows

    for question in questions:
        vector = ws.embedder.embed([question])[0]
        hits = [r[0] for r in store.run("retrieval/ann_texts", {"query": vector.tolist(), "k": 60, "efs": 200})]
        scan = timed("fan-out scan", store.run_columns, "retrieval/text_hubs", {"hashes": hits, "limit": 100})
        by_key = timed("fan-out by key", store.run_each, "retrieval/text_hubs_one", "hash", hits, {"limit": 100})
        if sorted(scan[0]) != sorted(r[0] for r in by_key):
            raise SystemExit(f"the two fan-out reads differ for {question!r}")
        hubs = sorted({h for r in by_key for h in r[2]})[:90]
        paths = list(dict.fromkeys(store.run_columns("retrieval/hub_vectors", {"hubs": hubs})[1]))[:200]
        scan = timed("paths scan", store.run_columns, "retrieval/paths_by_hash", {"hashes": paths})
        by_key = timed("paths by key", store.run_each, "retrieval/path_by_hash", "hash", paths)
        if sorted(scan[0]) != sorted(r[0] for r in by_key):
            raise SystemExit(f"the two path reads differ for {question!r}")
    counts = ws.vstore.counts()
    ws.close()
    print(f"{args.db}: {counts.texts:,} texts, {counts.paths:,} paths, {len(questions)} questions (median ms)")
    for name, values in timings.items():
        print(f"  {name:15s} {1000 * statistics.median(values):7.1f}")


if __name__ == "__main__":
    main()
