"""Where a direct-strategy question's time goes (issue 30): per-stage timers around the steps of
`kgqa ask --strategy direct` (offline), over a scale benchmark's questions, plus p50/p95.

    python bench/direct_profile.py --db .bench-scale/n100000/kuzu/graph.kuzu \
        --questions .bench-scale/n100000/questions.csv [--profile out.prof]

Stages: embed (the question and its components), ann (HNSW search per vector), text_hubs (the hit
texts' hubs), hub_vectors (exact scoring: reading the hubs' vectors and the matrix product), paths
(stored paths of the kept hubs), entities (hub root entities), partials (partial answers), exact
(the exact-answer step), chains (reading the question's relation chain), other (the rest). Each
stage's time is its own: a stage called inside another (the model inside chains) counts once.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from kgqa_cli.options import parse_params

from kgqa.answering.graph_answers import prepared
from kgqa.api import Workspace
from kgqa.config import RetrievalParams, Settings
from kgqa.evaluation.dataset import read_questions
from kgqa.memory import settle_heap

STAGES: dict[str, float] = defaultdict(float)
_NESTED: list[float] = []  # time spent in timed stages called from the running one


def _timed(stage: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """`func` with its own time (less that of the timed stages it calls) added to STAGES[stage]."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        _NESTED.append(0.0)
        try:
            return func(*args, **kwargs)
        finally:
            elapsed = time.perf_counter() - start
            STAGES[stage] += elapsed - _NESTED.pop()
            if _NESTED:
                _NESTED[-1] += elapsed

    return wrapper


def _instrument(ws: Workspace) -> None:
    """Timers on the workspace's objects (instances only: nothing is changed for other users)."""
    import kgqa.api as api_mod
    from kgqa.retrieval.hublink import retriever as retriever_mod

    vs = ws.vstore
    for name, stage in (
        ("nearest_each", "ann"),
        ("score_hubs", "hub_vectors"),
        ("paths", "paths"),
        ("text_hubs", "text_hubs"),
    ):
        setattr(vs, name, _timed(stage, getattr(vs, name)))
    ws.facts.entities = _timed("entities", ws.facts.entities)  # type: ignore[method-assign]
    emb = ws.embedder
    emb.embed = _timed("embed", emb.embed)  # type: ignore[method-assign]
    cls = retriever_mod.HubLinkRetriever
    cls._partials = _timed("partials", cls._partials)  # type: ignore[method-assign]
    cls._chain_answer = _timed("chains", cls._chain_answer)  # type: ignore[method-assign]
    api_mod.with_exact = _timed("exact", api_mod.with_exact)  # type: ignore[attr-defined]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("--questions", required=True)
    ap.add_argument("--profile", help="Write cProfile stats of the question loop here.")
    ap.add_argument(
        "--warm-catalog", action="store_true", help="Read the exact answers' catalog before the timed questions."
    )
    ap.add_argument(
        "--prime",
        action="store_true",
        help="Do what `kgqa serve` does before it listens: the index store's prime() (its text -> hub arrays "
        "and, where the memory ceiling has room, its hub vector and path tables), the hub roots, and "
        "settle_heap() after the first question.",
    )
    ap.add_argument("--limit", type=int, default=0, help="At most this many questions (0: all).")
    ap.add_argument("--slowest", type=int, default=0, help="Also list the K slowest questions and their stages.")
    ap.add_argument(
        "--param",
        action="append",
        default=[],
        help="A retriever parameter KEY=VALUE for every question (chains=0: HubLink's retrieval only).",
    )
    args = ap.parse_args()
    params = parse_params(tuple(args.param))
    ws = Workspace(Settings.from_env(args.db), read_only=True)
    ws.warm_up()
    if args.prime:
        start = time.perf_counter()
        ws.index_status()  # as a service does first: the index's dimension, for the hub vector table
        ws.vstore.prime()
        ws.facts.prime_hub_roots()
        print(f"primed the index store in {time.perf_counter() - start:.1f} s", flush=True)
    questions = read_questions(args.questions)
    if args.limit:
        questions = questions[: args.limit]
    base = RetrievalParams(extra=params)
    ws.ask(questions[0].question, base, strategy="direct", topic_entity=questions[0].topic_entity)
    if args.warm_catalog:  # what the exact-answer step reads once per graph state, not per question
        prepared(ws.store, ws.facts.index_meta, ws.facts.catalogs)
    if args.prime:
        settle_heap()
    _instrument(ws)
    STAGES.clear()
    prof = cProfile.Profile() if args.profile else None
    latencies = []
    per_question: list[tuple[float, str, dict[str, float]]] = []
    for q in questions:
        if prof:
            prof.enable()
        before = dict(STAGES)
        start = time.perf_counter()
        ws.ask(q.question, base, strategy="direct", topic_entity=q.topic_entity)
        latencies.append(time.perf_counter() - start)
        if prof:
            prof.disable()
        own = {k: v - before.get(k, 0.0) for k, v in STAGES.items() if v - before.get(k, 0.0) > 0.0005}
        per_question.append((latencies[-1], q.question, own))
    if prof:
        prof.dump_stats(args.profile)
    latencies.sort()
    n = len(latencies)
    total = sum(latencies)
    p95 = latencies[min(n - 1, int(round(0.95 * (n - 1))))]
    print(f"{n} questions: direct p50 {statistics.median(latencies) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms")
    print("| stage | ms per question | share |\n|---|---|---|")
    accounted = 0.0
    for stage, seconds in sorted(STAGES.items(), key=lambda kv: -kv[1]):
        accounted += seconds
        print(f"| {stage} | {seconds / n * 1000:.1f} | {seconds / total:.0%} |")
    print(f"| other | {(total - accounted) / n * 1000:.1f} | {(total - accounted) / total:.0%} |")
    for seconds, question, own in sorted(per_question, key=lambda t: -t[0])[: args.slowest]:
        stages = ", ".join(f"{k} {v * 1000:.0f}" for k, v in sorted(own.items(), key=lambda kv: -kv[1]))
        print(f"{seconds * 1000:6.0f} ms  {question[:90]}  ({stages})")
    ws.close()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
