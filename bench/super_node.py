"""A super-node, end to end: one paper with N authors (an edge per author) beside a few small papers.

    python bench/super_node.py [--authors 200000] [--cap N] [--out runs/super-node]

Loads the graph (`Workspace.add_triples`), builds the index with the default parameters (the hub over
`IndexParams.max_paths_per_hub` is indexed in part, docs/index-maintenance.md#super-nodes), then asks
questions about the hub in one process with the default question budget (30 s; the first question also
reads the graph's facts for exact answers), and prints one table: the build's phases, the capped hubs,
and each question's time, strategy and answer's start. Offline mode (no LLM, 0 tokens).
"""

from __future__ import annotations

import argparse
import shutil
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kgqa.config import IndexParams

QUESTIONS = (
    "Who are the authors of The Big Collaboration?",
    "How many authors does The Big Collaboration have?",
    "Which venue published The Big Collaboration?",
    "In which year was The Big Collaboration published?",
)


def build(out: Path, authors: int, params: IndexParams) -> list[tuple[str, str]]:
    """Load the graph into a new database under `out` and build its index; the table's rows."""
    from kgqa.api import Workspace
    from kgqa.config import Settings
    from kgqa.synthetic.super_node import super_node_records

    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    rows: list[tuple[str, str]] = []
    with Workspace.init(Settings(db_path=out / "kg.kuzu")) as ws:
        start = time.perf_counter()
        ws.add_triples(super_node_records(authors))
        rows.append(("load", f"{time.perf_counter() - start:.1f} s ({authors + 10:,} triples)"))
        report = ws.build_index(params)
        t = report.timings
        phases = ", ".join(f"{k} {t[k]:.1f}" for k in ("enumerate_paths", "verbalise", "embed", "write", "ann_index"))
        rows.append(("index build", f"{t['total']:.1f} s ({phases} s); {report.texts_embedded:,} texts embedded"))
        rows.append(("capped hubs", str(ws.index_status().info.stats.get("capped_hubs"))))
        rows += [("warning", n) for n in report.notes if n.startswith("warning:")]
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--authors", type=int, default=200_000)
    ap.add_argument("--cap", type=int, default=None, help="max_paths_per_hub (default: IndexParams' default)")
    ap.add_argument("--out", type=Path, default=Path("runs/super-node"))
    ap.add_argument("--questions-only", action="store_true", help="ask again on the database --out holds")
    args = ap.parse_args()

    from kgqa.api import Workspace
    from kgqa.config import IndexParams, Settings
    from kgqa.errors import QuestionTimeoutError

    params = IndexParams(hub_types=("Paper",))
    if args.cap is not None:
        params = replace(params, max_paths_per_hub=args.cap)
    rows: list[tuple[str, str]] = []
    if not args.questions_only:
        rows = build(args.out, args.authors, params)
    with Workspace(Settings(db_path=args.out / "kg.kuzu"), read_only=True) as ws:
        rows.append(("model load", f"{ws.warm_up():.1f} s"))
        budget = ws.settings.question_timeout_s
        for q in QUESTIONS:
            start = time.perf_counter()
            try:
                a = ws.ask(q)
                said = f"{a.strategy}: {a.answer[:90]}{'...' if len(a.answer) > 90 else ''}"
            except QuestionTimeoutError as exc:
                said = f"timeout: {exc}"
            rows.append((q, f"{time.perf_counter() - start:.2f} s (budget {budget:g} s); {said}"))
    print(f"| super-node, {args.authors:,} authors, cap {params.max_paths_per_hub:,} paths | |\n|---|---|")
    for k, v in rows:
        print(f"| {k} | {v.replace('|', '/')} |")


if __name__ == "__main__":
    main()
