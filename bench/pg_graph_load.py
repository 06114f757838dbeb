"""The graph in Postgres at 10^5 triples: `kgqa load` into Kùzu and into Postgres (`--graph postgres`),
and what the dirty-marking triggers cost a user's bulk COPY of the same triples (target: at most 2x
the COPY without them). One run, one table; offline (no model, no LLM).

    python bench/pg_graph_load.py [--triples 100000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg

from kgqa.postgres import server


def kgqa(cwd: Path, *args: str) -> float:
    start = time.perf_counter()
    env = {**os.environ, "KGQA_INDEX": "bench", "HF_HUB_OFFLINE": "1"}
    subprocess.run([sys.executable, "-m", "kgqa_cli.main", *args], cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def copy_triples(dsn: str, rows: list[tuple[str, str, str]], triggers: bool) -> float:
    """COPY `rows` into kgqa_bench.triples (emptied first), with the triggers on or off; seconds."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("ALTER TABLE kgqa_bench.triples DISABLE TRIGGER USER")
        conn.execute("TRUNCATE kgqa_bench.triples, kgqa_bench.dirty_entities")
        if triggers:
            conn.execute("ALTER TABLE kgqa_bench.triples ENABLE TRIGGER USER")
        start = time.perf_counter()
        with conn.transaction(), conn.cursor() as cur:
            with cur.copy("COPY kgqa_bench.triples (subject, predicate, object) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        took = time.perf_counter() - start
        conn.execute("ALTER TABLE kgqa_bench.triples ENABLE TRIGGER USER")
        return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--triples", type=int, default=100_000)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="kgqa-bench-pg-graph-"))
    data = root / ".kgqa" / "pg"
    try:
        kgqa(root, "bench", "generate", "--triples", str(args.triples), "--out", "g", "--questions", "1")
        graph = root / "g" / "graph.csv"
        dsn = server.start(data).dsn
        kuzu_s = kgqa(root, "--db", "k/graph.kuzu", "load", str(graph))
        pg_s = kgqa(root, "load", str(graph), "--graph", "postgres", "--pg-dsn", dsn)
        with psycopg.connect(dsn) as conn:
            rows = conn.execute("SELECT subject, predicate, object FROM kgqa_bench.triples").fetchall()
        off = min(copy_triples(dsn, rows, triggers=False) for _ in range(2))
        on = min(copy_triples(dsn, rows, triggers=True) for _ in range(2))
        n = len(rows)
        print(f"| {n:,} triples | seconds |")
        print("|---|---|")
        print(f"| `kgqa load` into Kùzu | {kuzu_s:.1f} |")
        print(f"| `kgqa load --graph postgres` (binary COPY, merge) | {pg_s:.1f} |")
        print(f"| user's COPY into triples, triggers off | {off:.2f} |")
        print(f"| user's COPY into triples, triggers on (dirty marks) | {on:.2f} ({on / off:.2f}x) |")
    finally:
        server.stop(data)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
