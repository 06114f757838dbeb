"""Question latency on the demo graph: all Kùzu vs the graph and index in Postgres (`--graph
postgres`), the same questions in one process with the model loaded; p50 and p90 of 3 rounds.
Needs a running Postgres whose index `demo` was built with `--graph postgres` (docs/postgres-graph.md):

    python bench/pg_graph_latency.py DSN
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import DEMO_QUESTIONS, demo_graph_path


def timings(ws: Workspace, rounds: int = 3) -> list[float]:
    ws.ask(DEMO_QUESTIONS[0][0])  # warm: caches and prepared queries
    out = []
    for _ in range(rounds):
        for question, *_ in DEMO_QUESTIONS:
            start = time.perf_counter()
            ws.ask(question)
            out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    dsn = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        kuzu = Workspace.init(Settings(db_path=Path(tmp) / "demo.kuzu"))
        kuzu.load(demo_graph_path())
        kuzu.build_index(IndexParams(hub_types=("Paper",)))
        pg_settings = Settings(
            db_path=Path(tmp) / "none.kuzu", graph="postgres", store="pgvector", pg_dsn=dsn, index="demo"
        )
        pg = Workspace(pg_settings, read_only=True, embedder=kuzu.embedder)
        print(f"| {len(DEMO_QUESTIONS)} demo questions x 3 | p50 ms | p90 ms |")
        print("|---|---|---|")
        for name, ws in (("all Kùzu", kuzu), ("all Postgres (--graph postgres)", pg)):
            t = sorted(timings(ws))
            print(f"| {name} | {statistics.median(t):.0f} | {t[int(len(t) * 0.9)]:.0f} |")
        pg.close()
        kuzu.close()


if __name__ == "__main__":
    main()
