"""Same answers in three placements (issue #28 point 5): the graph and its index all in Kùzu; the
graph in Kùzu with its index in pgvector; all in Postgres (`--graph postgres --store pgvector`).
Each placement loads the same graph, builds the same index and answers the same questions as `kgqa eval`
does (each question with its topic entity, offline mode); the script prints R/P/F1 per placement and how
many questions got identical triples and answers in all three, naming those that did not.

    python bench/pg_graph_placements.py                      # the ORKG dev set (../shared/bench/orkg)
    python bench/pg_graph_placements.py --set demo           # the demo question set
    python bench/pg_graph_placements.py --dsn DSN            # a running Postgres (else one in a temp dir)

Kùzu keeps its exact-scoring copy of each vector in float16 by default and pgvector keeps float32, so
scores may differ in the 4th decimal; `--half-vectors off` stores float32 in Kùzu too.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.demo import demo_graph_path, demo_questions_path
from kgqa.embeddings import get_embedder
from kgqa.evaluation.dataset import Question, read_questions
from kgqa.evaluation.report import evaluate
from kgqa.evaluation.runner import read_run, run_questions

ROOT = Path(__file__).resolve().parents[1]
ORKG = ROOT.parent / "shared" / "bench" / "orkg"


@dataclass(frozen=True)
class QuestionSet:
    """A graph, its questions and the index parameters of its benchmark run."""

    name: str
    graph: Path
    questions: Path
    index: IndexParams


SETS = {
    "orkg": QuestionSet(
        "ORKG dev",
        ORKG / "graph_gv3.json",
        ORKG / "questions_dev_gv3.csv",
        IndexParams(hub_types=("Paper",), start_ids=("R659055",)),  # as bench/orkg_dev.sh
    ),
    "demo": QuestionSet("demo", demo_graph_path(), demo_questions_path(), IndexParams(hub_types=("Paper",))),
}
#: The three placements: (name, graph, store).
PLACEMENTS = (
    ("all Kùzu", "kuzu", "kuzu"),
    ("Kùzu graph + pgvector index", "kuzu", "pgvector"),
    ("all Postgres", "postgres", "pgvector"),
)


@contextmanager
def postgres(dsn: str | None) -> Iterator[str]:
    """`dsn`, or a Postgres started for this run in a temporary directory (stopped afterwards)."""
    if dsn:
        yield dsn
        return
    from kgqa.postgres import server

    root = Path(tempfile.mkdtemp(prefix="kgqa-placements-"))
    try:
        yield server.start(root / "pg").dsn
    finally:
        server.stop(root / "pg")
        shutil.rmtree(root, ignore_errors=True)


def answer_all(ws: Workspace, questions: list[Question], out: Path, strategy: str) -> list[dict[str, Any]]:
    """Every question asked as `kgqa eval` asks it (its topic entity, offline); the run's records."""
    params = RetrievalParams(strategy=strategy)
    run_questions(
        questions, lambda q: ws.ask(q.question, params, topic_entity=q.topic_entity), out, {"strategy": strategy}
    )
    return read_run(out)


def run(qset: QuestionSet, dsn: str, work: Path, strategy: str, half: bool) -> dict[str, Any]:
    """Build each placement and answer the questions; per placement its metrics and records."""
    questions = read_questions(qset.questions)
    embedder = get_embedder("all-MiniLM-L6-v2")
    out: dict[str, Any] = {}
    for name, graph, store in PLACEMENTS:
        index = "placements_" + ("pg" if graph == "postgres" else "kz")
        settings = Settings(
            db_path=work / "graph.kuzu", graph=graph, store=store, pg_dsn=dsn, index=index, half_vectors=half
        )
        with Workspace.init(settings, embedder=embedder) as ws:
            if graph == "postgres" or store == "kuzu":  # the middle placement reads the all-Kùzu graph
                ws.load(qset.graph)
            ws.build_index(qset.index)
        with Workspace(settings, read_only=True, embedder=embedder) as ws:
            records = answer_all(ws, questions, work / f"{index}-{store}.jsonl", strategy)
        ev = evaluate(records, questions)
        out[name] = {"records": records, "metrics": overall(ev)}
    return out


def overall(ev: Any) -> dict[str, float]:
    """The run's mean recall, precision and F1 (the first row `kgqa eval report` prints)."""
    return {m: ev.overall[m] for m in ("recall", "precision", "f1")}


def agreement(results: dict[str, Any]) -> tuple[int, list[str]]:
    """How many questions have the same answer and triples in every placement; for the others, the
    question and which placements differ from the first (answer, triples, or both)."""
    names = list(results)
    runs = [{r["uid"]: r for r in results[n]["records"]} for n in names]
    same, differ = 0, []
    for uid, first in runs[0].items():
        what = []
        for name, run in zip(names[1:], runs[1:]):
            parts = [k for k in ("answer", "triples") if run[uid][k] != first[k]]
            if parts:
                what.append(f"{name}: {' and '.join(parts)}")
        if what:
            differ.append(f"{first['question']} ({'; '.join(what)})")
        else:
            same += 1
    return same, differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=sorted(SETS), default="orkg")
    parser.add_argument("--dsn", default=None, help="a running Postgres (default: one started in a temp dir)")
    parser.add_argument("--strategy", choices=("traversal", "direct"), default="traversal")
    parser.add_argument("--half-vectors", choices=("on", "off"), default="on")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--runs", type=Path, default=None, help="keep the run files here (default: a temp dir)")
    args = parser.parse_args()
    qset = SETS[args.set]
    with postgres(args.dsn) as dsn, tempfile.TemporaryDirectory() as tmp:
        work = args.runs or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        results = run(qset, dsn, work, args.strategy, args.half_vectors == "on")
    same, differ = agreement(results)
    total = len(next(iter(results.values()))["records"])
    print(f"{qset.name}, {total} questions, strategy {args.strategy}, offline mode, half vectors {args.half_vectors}\n")
    print("| placement | R | P | F1 |")
    print("|---|---|---|---|")
    for name, res in results.items():
        m = res["metrics"]
        print(f"| {name} | {m['recall']:.3f} | {m['precision']:.3f} | {m['f1']:.3f} |")
    print(f"\nidentical triples and answer in all three placements: {same} of {total}")
    for question in differ:
        print(f"- differs: {question}")
    if args.json:
        figures = {n: r["metrics"] for n, r in results.items()}
        args.json.write_text(
            json.dumps(
                {
                    "set": args.set,
                    "strategy": args.strategy,
                    "same": same,
                    "total": total,
                    "placements": figures,
                    "differ": differ,
                },
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
