"""Latency of the explore reads (kgqa/graph/explore.py, what the page's explore endpoints call) on the ORKG
GV3 graph, in process, offline mode (no model, no LLM: graph reads only).

    python bench/explore_latency.py [--rounds 20] [--out bench/results/explore.md]

The graph is loaded into a temporary Kùzu database (no index is needed). Each read runs `--rounds` times
after one warm-up run; the table gives p50 and max in ms and the queries each read ran.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
GRAPH = HERE.parents[1] / "shared" / "bench" / "orkg" / "graph_gv3.json"
ICSA, ECSA, FIELD = "R820814", "R821053", "R659055"  # two venues and the research field of ORKG GV3


def main() -> int:
    from tables import emit

    from kgqa.api import Workspace
    from kgqa.config import Settings
    from kgqa.graph import explore

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--out", default=str(HERE / "results" / "explore.md"))
    args = ap.parse_args()
    if not GRAPH.exists():
        print(f"needs the ORKG graph at {GRAPH}", file=sys.stderr)
        return 2
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, Workspace.init(Settings(db_path=Path(tmp) / "orkg.kuzu")) as ws:
        ws.load(GRAPH)
        store, stats = ws.store, ws.stats()
        reads: list[tuple[str, Callable[[], Any]]] = [
            ("neighbours of ICSA (venue, in), page 1 of 25", lambda: explore.neighbours(store, ICSA, limit=25)),
            (
                "neighbours of ICSA, page 3 (offset 50)",
                lambda: explore.neighbours(store, ICSA, predicate="venue", offset=50, limit=25),
            ),
            ("neighbours of the research field (all)", lambda: explore.neighbours(store, FIELD, limit=200)),
            ("search 'architecture' (resources and literals)", lambda: explore.search_entities(store, "architecture")),
            ("search type Paper, 200", lambda: explore.search_entities(store, type_="Paper", limit=200)),
            ("paths ICSA -> ECSA, max depth 4", lambda: explore.shortest_paths(store, ICSA, ECSA, max_depth=4)),
            ("paths ICSA -> ECSA, max depth 6", lambda: explore.shortest_paths(store, ICSA, ECSA, max_depth=6)),
            ("schema (500 types and predicates)", lambda: explore.schema(store)),
            ("evidence bridges of 30 papers", lambda: explore.bridges(store, papers)),
        ]
        papers = [e.id for e in explore.search_entities(store, type_="Paper", limit=30)]
        rows = []
        for name, read in reads:
            calls = 0
            real = store.run

            def counting(*a: Any, _real: Any = real, **k: Any) -> Any:
                nonlocal calls
                calls += 1
                return _real(*a, **k)

            store.run = counting  # type: ignore[method-assign]
            result = read()
            queries = calls
            store.run = real  # type: ignore[method-assign]
            times = []
            for _ in range(args.rounds):
                t = time.perf_counter()
                read()
                times.append((time.perf_counter() - t) * 1000)
            size = _size(result)
            rows.append(f"| {name} | {statistics.median(times):.1f} | {max(times):.1f} | {queries} | {size} |")
    lines = [
        "# Explore reads on ORKG GV3 (kgqa/graph/explore.py)",
        "",
        f"`python bench/explore_latency.py --rounds {args.rounds}`: {stats.entities} entities, {stats.triples} "
        f"triples; Kùzu, in process, offline mode (graph reads only, no model, 0 tokens); {os.cpu_count()} CPUs, "
        f"{platform.machine()}, load average {load:.2f} at the start (a shared 2-core dev box).",
        "",
        "| read | p50 ms | max ms | queries | result |",
        "|---|---:|---:|---:|---|",
        *rows,
    ]
    emit(lines, args.out)
    return 0


def _size(result: Any) -> str:
    if isinstance(result, list):
        return f"{len(result)} items"
    if hasattr(result, "paths"):
        return f"{len(result.paths)} paths of {result.depth} triples" + (" (capped)" if result.truncated else "")
    if hasattr(result, "neighbours"):
        return f"{len(result.neighbours)} of {result.total}"
    if hasattr(result, "types"):
        return f"{len(result.types)} types, {len(result.predicates)} predicates"
    return ""


if __name__ == "__main__":
    raise SystemExit(main())
