"""What `kgqa index update` pays to find the changed hubs of a user's own property graph.

    python bench/own_graph_update.py [--papers 20000] [--authors 79900] [--out runs/own-update]

A user's own graph has no change marks (HubLink never sees the user's CREATE/SET/DELETE), so an update
finds the changed hubs by content: it reads the hub roots, enumerates every hub's paths through the
property-graph layout and compares each hub's path-hash set with the stored signature. This script
builds a synthetic graph with Cypher DDL and COPY (Paper/Author/Venue, WROTE, PUBLISHED_AT; 10^5
entities with the defaults) and times that detection as a dry-run build (it enumerates and compares exactly as
`index update` does, and embeds and writes nothing), then prints one table row.
"""

from __future__ import annotations

import argparse
import csv
import random
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make_graph(path: Path, papers: int, authors: int, venues: int, seed: int = 7) -> int:
    """The synthetic graph, written with Cypher DDL and COPY; returns its entity count."""
    import kuzu

    rng = random.Random(seed)
    if path.exists():
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    path.with_name(path.name + ".wal").unlink(missing_ok=True)
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    for ddl in (
        "CREATE NODE TABLE Paper(id STRING PRIMARY KEY, title STRING, year INT64, doi STRING)",
        "CREATE NODE TABLE Author(id STRING PRIMARY KEY, name STRING)",
        "CREATE NODE TABLE Venue(id STRING PRIMARY KEY, name STRING)",
        "CREATE REL TABLE WROTE(FROM Author TO Paper, position INT64)",
        "CREATE REL TABLE PUBLISHED_AT(FROM Paper TO Venue)",
    ):
        conn.execute(ddl)
    rows = {
        "Venue": [(f"v{i}", f"Venue {i}") for i in range(venues)],
        "Author": [(f"a{i}", f"Author {i}") for i in range(authors)],
        "Paper": [(f"p{i}", f"Paper number {i}", 2000 + i % 25, f"10.1/{i}") for i in range(papers)],
        "PUBLISHED_AT": [(f"p{i}", f"v{rng.randrange(venues)}") for i in range(papers)],
        "WROTE": [(f"a{rng.randrange(authors)}", f"p{i}", k + 1) for i in range(papers) for k in range(3)],
    }
    for table, data in rows.items():  # COPY FROM a CSV file: Kùzu's bulk load
        csv_path = path.parent / f"{table}.csv"
        with csv_path.open("w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(data)
        conn.execute(f"COPY {table} FROM '{csv_path}' (header=false)")
        csv_path.unlink()
    conn.close()
    db.close()
    return papers + authors + venues


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=20_000)
    parser.add_argument("--authors", type=int, default=79_900)
    parser.add_argument("--venues", type=int, default=100)
    parser.add_argument("--hubs-per-batch", type=int, default=None, help="Default: the build's (200).")
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "own-update")
    args = parser.parse_args()
    from kgqa.api import Workspace
    from kgqa.config import IndexParams, Settings

    args.out.mkdir(parents=True, exist_ok=True)
    db = args.out / "own.kuzu"
    started = time.perf_counter()
    entities = make_graph(db, args.papers, args.authors, args.venues)
    print(
        f"graph: {entities:,} entities written with Cypher DDL and COPY in {time.perf_counter() - started:.1f}s",
        file=sys.stderr,
    )
    ws = Workspace(Settings(db_path=db))
    try:
        started = time.perf_counter()
        params = IndexParams(hub_types=("Paper",))
        if args.hubs_per_batch:
            params = replace(params, hubs_per_batch=args.hubs_per_batch)
        report = ws.build_index(params, dry_run=True)
        total = time.perf_counter() - started
    finally:
        ws.close()
    t = report.timings
    print("| entities | hubs | hubs per batch | paths | find roots s | enumerate + hash paths s | total s |")
    print("|---|---|---|---|---|---|---|")
    enumerate_s = t.get("enumerate_paths", 0.0) + t.get("verbalise", 0.0)
    print(
        f"| {entities:,} | {report.hubs_checked or report.hub_roots:,} | {params.hubs_per_batch} | {report.paths_written:,} | "
        f"{t.get('find_roots', 0.0):.1f} | {enumerate_s:.1f} | {total:.1f} |"
    )


if __name__ == "__main__":
    main()
