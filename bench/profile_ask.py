"""Where a warm traversal question's time goes: components, embedding, Kùzu reads, scoring, answer.

Opens the workspace read-only once, loads the embedder and answers one question to warm up, then
answers every dev question --passes times. Each phase is timed exclusively (a Kùzu read inside the
scoring counts as Kùzu, not scoring); "scoring and the rest" is the question's wall time minus the
other phases. Also prints the retrieval metrics and a digest of every answer's triples and sources,
so that a speed-up can be checked to change no result.

    python bench/profile_ask.py --db /tmp/onnx/orkg.kuzu [--passes 3] [--out bench/results/profile_ask.md]
        [--expect-digest DIGEST]   # the digest a run before a speed-up printed
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import platform
import statistics
import time
from collections import defaultdict
from pathlib import Path

from tables import emit

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.evaluation.dataset import read_questions
from kgqa.evaluation.metrics import macro_average, score_question
from kgqa.graph.store import GraphStore
from kgqa.llm.offline import OfflineRoles
from kgqa.retrieval.hublink import retriever as hublink

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench" / "orkg"
PHASES = ("components", "embedding", "kuzu", "answer")


class PhaseClock:
    """Exclusive time per phase: entering a phase pauses the one it was called from."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = defaultdict(float)
        self._stack: list[list] = []  # [phase, started]

    def wrap(self, phase: str, func):
        @functools.wraps(func)
        def timed(*args, **kwargs):
            now = time.perf_counter()
            if self._stack:
                outer = self._stack[-1]
                self.totals[outer[0]] += now - outer[1]
            self._stack.append([phase, now])
            try:
                return func(*args, **kwargs)
            finally:
                end = time.perf_counter()
                self.totals[phase] += end - self._stack.pop()[1]
                if self._stack:
                    self._stack[-1][1] = end

        return timed

    def take(self) -> dict[str, float]:
        out = dict(self.totals)
        self.totals.clear()
        return out


QUERY_SECONDS: dict[str, float] = defaultdict(float)


def _per_query(raw):
    @functools.wraps(raw)
    def timed(self, name, text, params):
        t = time.perf_counter()
        try:
            return raw(self, name, text, params)
        finally:
            QUERY_SECONDS[name] += time.perf_counter() - t

    return timed


def instrument(clock: PhaseClock, embedder_type: type) -> None:
    """Wrap the functions of each phase (module attributes, so every caller sees the wrappers)."""
    GraphStore._raw = _per_query(GraphStore._raw)
    for name in ("run", "run_columns", "run_with_table", "query", "scalar"):
        setattr(GraphStore, name, clock.wrap("kuzu", getattr(GraphStore, name)))
    embedder_type.embed = clock.wrap("embedding", embedder_type.embed)
    OfflineRoles.extract_components = clock.wrap("components", OfflineRoles.extract_components)
    hublink.analyse_components = clock.wrap("components", hublink.analyse_components)
    for name in ("final_answer", "select_triples", "partial_answers"):
        setattr(OfflineRoles, name, clock.wrap("answer", getattr(OfflineRoles, name)))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--questions", default=str(SHARED / "questions_dev_gv3.csv"))
    ap.add_argument(
        "--passes",
        type=int,
        default=1,
        help="passes over the questions (after the first, question texts are embedded from memory)",
    )
    ap.add_argument("--out", default=None, help="also write the table (markdown) here")
    ap.add_argument(
        "--expect-digest",
        default=None,
        help="answers digest of a reference run: print whether this run's equals it, exit 1 if not",
    )
    args = ap.parse_args()

    questions = [q for q in read_questions(args.questions) if q.topic_entity]
    ws = Workspace(Settings.from_env(args.db), read_only=True)
    started = time.perf_counter()
    ws.warm_up()
    load_s = time.perf_counter() - started
    # first-question caches (a question not in the set: the embedder remembers texts it has embedded)
    ws.ask("Which papers are in this graph?", topic_entity=questions[0].topic_entity)

    clock = PhaseClock()
    instrument(clock, type(ws.embedder))
    walls: list[float] = []
    phases: dict[str, list[float]] = defaultdict(list)
    answers = {}
    for _ in range(args.passes):
        for q in questions:
            t = time.perf_counter()
            answer = ws.ask(q.question, topic_entity=q.topic_entity)
            wall = time.perf_counter() - t
            split = clock.take()
            walls.append(wall)
            for p in PHASES:
                phases[p].append(split.get(p, 0.0))
            phases["scoring and the rest"].append(wall - sum(split.values()))
            answers[q.uid] = (answer.triples, [s.hub_id for s in answer.sources])
    metrics = macro_average([score_question(answers[q.uid][0], q.golden) for q in questions])
    digest = hashlib.sha256(json.dumps(answers, sort_keys=True).encode()).hexdigest()[:16]

    total = sum(walls)
    lines = [
        f"Warm `ask`, traversal, offline mode, {len(questions)} ORKG dev questions x {args.passes} passes; "
        f"embedder {getattr(ws.embedder, 'label', 'torch-fp32')} ({load_s:.2f} s to load); {os.cpu_count()} cores, "
        f"{platform.machine()}, shared machine (other work running).",
        "",
        "| phase | mean ms/question | share | p50 ms | p95 ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for p in (*PHASES, "scoring and the rest"):
        v = phases[p]
        lines.append(
            f"| {p} | {1000 * statistics.fmean(v):.1f} | {100 * sum(v) / total:.0f} % | "
            f"{1000 * percentile(v, 0.5):.1f} | {1000 * percentile(v, 0.95):.1f} |"
        )
    lines.append(
        f"| **question (wall)** | {1000 * statistics.fmean(walls):.1f} | 100 % | "
        f"{1000 * percentile(walls, 0.5):.1f} | {1000 * percentile(walls, 0.95):.1f} |"
    )
    n = len(walls)
    lines += [
        "",
        "Kùzu queries by name (time to execute; row fetching counts in the kuzu phase above):",
        "",
        "| query | ms/question |",
        "|---|---:|",
    ]
    for name, seconds in sorted(QUERY_SECONDS.items(), key=lambda kv: -kv[1])[:8]:
        lines.append(f"| {name} | {1000 * seconds / n:.1f} |")
    lines += [
        "",
        "Retrieval metrics (must not change with a speed-up): "
        + ", ".join(f"{k} {v:.4f}" for k, v in metrics.items())
        + f"; answers digest `{digest}`",
    ]
    if args.expect_digest:
        same = digest == args.expect_digest
        lines.append(f"Digest check against `{args.expect_digest}`: {'identical' if same else 'DIFFERENT'}")
    emit(lines, args.out)
    ws.close()
    if args.expect_digest and digest != args.expect_digest:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
