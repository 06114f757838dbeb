"""One measurement of the scale benchmark, in a fresh process (so peak RSS is its own), printing
one JSON object on stdout. Run by bench/scale.py; usable alone:

    python bench/scale_worker.py load --db D --graph G.csv
    python bench/scale_worker.py build --db D [--store pgvector --pg-dsn DSN] [--dry-run]
    python bench/scale_worker.py walk --db D    # a build up to its HNSW step (a later `build` resumes and makes it)
    python bench/scale_worker.py reference --db D [--sample 0.25]
    python bench/scale_worker.py probe --db D --texts T.json   # embedding speed now (D is not opened)
    python bench/scale_worker.py sync --db D --pg-dsn DSN
    python bench/scale_worker.py query --db D --questions Q.csv --strategy direct [--store ...]
    python bench/scale_worker.py serve --db D --questions Q.csv [--store pgvector --pg-dsn DSN]
    python bench/scale_worker.py paths --db D --graph-in postgres --index NAME --pg-dsn DSN [--rounds 2]
    python bench/scale_worker.py update --db D --graph G.csv [--changes 100]   # changes the graph and index

With `--graph-in postgres --index NAME --pg-dsn DSN` the graph is the one in Postgres (no Kùzu file; `--db`
then only names the workspace), and `build --workers N` is the shared build of N worker processes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from kgqa_cli.options import parse_params

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.embeddings import embedder_for_index
from kgqa.evaluation.dataset import read_questions
from kgqa.evaluation.metrics import score_question
from kgqa.memory import peak_rss_bytes


def _peak_rss_mib() -> float:
    return peak_rss_bytes() / 2**20


def _workspace(args: argparse.Namespace, **kw) -> Workspace:
    # the graph in Postgres keeps its index there too
    overrides = {"store": "pgvector" if args.graph_in == "postgres" else args.store, "graph": args.graph_in}
    if args.pg_dsn:
        overrides["pg_dsn"] = args.pg_dsn
    if args.index:
        overrides["index"] = args.index
    return Workspace(Settings.from_env(args.db, **overrides), **kw)


def _embedder_label(ws: Workspace) -> str:
    """The backend and precision of the workspace's embedder ("onnx-fp32", "torch-fp32")."""
    return str(getattr(ws.embedder, "label", "torch-fp32"))


def load(args: argparse.Namespace) -> dict:
    ws = _workspace(args, create=True)
    start = time.perf_counter()
    report = ws.load(args.graph)
    seconds = time.perf_counter() - start
    ws.close()
    return {"seconds": seconds, "triples": report.triples_total, "entities": report.entities_total}


def build(args: argparse.Namespace) -> dict:
    """An index build; with `--workers N` the shared build (`kgqa index build --workers N`): N worker
    processes claim the hub batches from the queue in Postgres, and its seconds include their start
    and model load (each loads its own)."""
    ws = _workspace(args, create=not args.workers, read_only=bool(args.workers))
    model_load = 0.0 if args.dry_run else ws.warm_up()
    start = time.perf_counter()
    if args.workers:
        from kgqa.indexing.shared_build import build_shared

        report = build_shared(
            ws.store,
            ws.vstore,
            ws.embedder,
            IndexParams(),
            settings=ws.settings,
            workers=args.workers,
            rebuild=args.rebuild,
        )
    else:
        report = ws.build_index(IndexParams(), dry_run=args.dry_run, rebuild=args.rebuild)
    seconds = time.perf_counter() - start
    ws.close()
    return {
        "seconds": seconds,
        "model_load": model_load,
        "timings": report.timings,
        "hubs": report.hubs_rebuilt,
        "paths": report.paths_written,
        "texts_embedded": report.texts_embedded,
        "vectors": report.vectors_written,
        "released_mib_before_ann": report.memory_released / 2**20,
        "dry_run": args.dry_run,
        "workers": args.workers,
        "embedder": None if args.dry_run else _embedder_label(ws),
    }


def walk(args: argparse.Namespace) -> dict:
    """A build without its HNSW step: every hub written, the index left resumable, so that a later
    `build` (in its own process) measures the HNSW step under its own settings."""
    from kgqa.indexing.builder import IndexBuild

    ws = _workspace(args, create=True)
    ws.warm_up()
    start = time.perf_counter()
    run = IndexBuild(ws.store, ws.vstore, ws.embedder, IndexParams())
    run.prepare()
    run.find_roots()
    run.walk()
    seconds = time.perf_counter() - start
    ws.close()
    return {"seconds": seconds, "timings": run.report.timings, "hubs": run.report.hubs_rebuilt}


def reference(args: argparse.Namespace) -> dict:
    """The embedding model alone on the index's unique texts (or a uniform sample, scaled up)."""
    ws = _workspace(args, read_only=True)
    texts = ws.store.run_columns("indexing/all_texts")[1]
    settings = Settings.from_env(args.db)
    # the embedder that built the index (KGQA_EMBEDDER=auto follows the space the index records)
    embedder = embedder_for_index(settings, ws.index_space())
    ws.close()
    n_all = len(texts)
    if args.sample < 1.0:
        texts = random.Random(0).sample(texts, max(1, int(n_all * args.sample)))
    start = time.perf_counter()
    embedder.embed(["warm-up"])
    model_load = time.perf_counter() - start
    start = time.perf_counter()
    batch = 8192  # the builder's batches are about this size too (200 hubs)
    for i in range(0, len(texts), batch):
        embedder.embed(texts[i : i + batch])
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds * n_all / len(texts),
        "measured_seconds": seconds,
        "texts": n_all,
        "sampled": len(texts),
        "model_load": model_load,
        "embedder": str(getattr(embedder, "label", "torch-fp32")),
    }


def probe(args: argparse.Namespace) -> dict:
    """The machine's embedding speed now: the fixed texts of `--texts` (a JSON list) embedded alone, with
    the embedder the settings name (bench/speed_probes.py); the index is not opened (a build may hold it)."""
    texts = json.loads(Path(args.texts).read_text(encoding="utf-8"))
    embedder = embedder_for_index(Settings.from_env(args.db), None)
    embedder.embed(["warm-up"] * 32)
    start = time.perf_counter()
    embedder.embed(texts)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "texts": len(texts), "rate": len(texts) / seconds, "at": time.time()}


def sync(args: argparse.Namespace) -> dict:
    ws = Workspace(Settings.from_env(args.db, index=args.index), read_only=True)
    start = time.perf_counter()
    report = ws.sync_index("pgvector", pg_dsn=args.pg_dsn, rebuild=True)
    seconds = time.perf_counter() - start
    ws.close()
    return {"seconds": seconds, "report": {k: v for k, v in vars(report).items() if isinstance(v, (int, float))}}


def query(args: argparse.Namespace) -> dict:
    """Latency and quality over the questions (offline mode), model loaded and one question run first."""
    ws = _workspace(args, read_only=args.store == "kuzu")
    ws.warm_up()
    questions = read_questions(args.questions)
    ws.ask(questions[0].question, strategy=args.strategy, topic_entity=questions[0].topic_entity)
    latencies, scores = [], []
    for q in questions:
        start = time.perf_counter()
        answer = ws.ask(q.question, strategy=args.strategy, topic_entity=q.topic_entity)
        latencies.append(time.perf_counter() - start)
        scores.append(score_question(answer.triples, q.golden))
    label = _embedder_label(ws)
    ws.close()
    return {**_summary(latencies, scores), "embedder": label}


def update(args: argparse.Namespace) -> dict:
    """An incremental update of a built index: `--changes` random papers of the graph file each gain a
    keyword no other paper has and as many lose one of theirs (`kgqa load` / `kgqa triples delete`,
    which mark the touched hubs), then `index update --dirty`. It changes the database for good. The
    result says whether a question about one new keyword is answered from the paper that gained it."""
    import csv

    rng = random.Random(args.seed)
    with open(args.graph, newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["predicate"] == "keyword"]
    papers = sorted({r["subject"] for r in rows})
    gaining = rng.sample(papers, args.changes)
    losing = rng.sample(sorted(set(papers) - set(gaining)), args.changes)
    first_keyword = {}
    for r in rows:
        first_keyword.setdefault(r["subject"], r)
    work = Path(args.db).parent
    added, removed = work / "update-add.csv", work / "update-delete.csv"
    for path, chosen in ((added, gaining), (removed, losing)):
        with path.open("w", newline="", encoding="utf-8") as fh:
            out = csv.DictWriter(fh, fieldnames=list(rows[0]))
            out.writeheader()
            for k, pid in enumerate(chosen):
                row = dict(first_keyword[pid])
                if path is added:
                    row["object"] = f"incremental change {args.seed}-{k:04d}"
                out.writerow(row)
    ws = _workspace(args)
    ws.warm_up()
    start = time.perf_counter()
    loaded = ws.load(added)
    deleted = ws.delete_file(removed)
    marked = len(ws.dirty_hubs())
    edit_s = time.perf_counter() - start
    start = time.perf_counter()
    report = ws.update_index(dirty=True)
    update_s = time.perf_counter() - start
    keyword = f"incremental change {args.seed}-0000"
    answer = ws.ask(f"Which papers have the keyword {keyword}?", strategy="direct")
    ws.close()
    return {
        "changes": args.changes,
        "triples_added": loaded.triples_added,
        "triples_deleted": deleted.deleted,
        "hubs_marked": marked,
        "edit_s": edit_s,
        "seconds": update_s,
        "timings": report.timings,
        "hubs": report.hubs_rebuilt,
        "texts_embedded": report.texts_embedded,
        "vectors": report.vectors_written,
        "answered_from_changed_hub": any(
            keyword in t and first_keyword[gaining[0]]["subject_label"] in t for t in answer.triples
        ),
        "embedder": _embedder_label(ws),
    }


def _summary(latencies: list[float], scores: list) -> dict:
    """p50, p95 and mean latency (seconds), recall and Hits@10 over the questions asked."""
    ordered = sorted(latencies)
    return {
        "questions": len(ordered),
        "p50": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))],
        "mean": statistics.fmean(ordered),
        "recall": statistics.fmean(s.recall for s in scores),
        "hits_at_10": statistics.fmean(s.hits_at_10 for s in scores),
    }


def serve(args: argparse.Namespace) -> dict:
    """Both strategies through a real `kgqa serve` process (one worker, a free loopback port), one question
    at a time over HTTP: latency as the client measures it, quality from the reply's triples, the
    service's start (it reads its catalogs before it listens) and its peak RSS."""
    import signal

    from serve_latency import post, rss_mib, start_service

    settings = Settings.from_env(args.db, store=args.store, **({"pg_dsn": args.pg_dsn} if args.pg_dsn else {}))
    extra_env = {"KGQA_STORE": args.store, **({"KGQA_PG_DSN": args.pg_dsn} if args.pg_dsn else {})}
    params = parse_params(tuple(args.param))
    started = time.perf_counter()
    proc, url = start_service(Path(args.db), 1, extra_env=extra_env, state_path=settings.service_path, timeout=1800)
    questions = read_questions(args.questions)
    out: dict = {"questions": len(questions), "start_s": time.perf_counter() - started}
    try:
        for strategy in ("direct", "traversal"):
            bodies = [
                {
                    "question": q.question,
                    "strategy": strategy,
                    **({"topic_entity": q.topic_entity} if q.topic_entity else {}),
                    **({"params": params} if params else {}),
                }
                for q in questions
            ]
            post(url, bodies[0])  # the HTTP path opened
            latencies, served, replies, answered_by = [], [], [], []
            for body in bodies:
                t0 = time.perf_counter()
                reply = post(url, body)
                latencies.append(time.perf_counter() - t0)
                served.append(float(reply.get("timings", {}).get("total", 0.0)))
                replies.append(reply["triples"])
                answered_by.append(str(reply.get("strategy", "")))
            scores = [score_question(r, q.golden) for r, q in zip(replies, questions)]
            out[strategy] = {
                **_summary(latencies, scores),
                "served_p50": statistics.median(served),
                "via": "kgqa serve (HTTP, 1 worker)",
                "params": params,
                # how each question was answered: HubLink's retrieval (its strategy) or a relation chain
                "answered_by": dict(Counter(answered_by)),
            }
            retrieved = [t for t, by in zip(latencies, answered_by) if by != "chain"]
            if retrieved and len(retrieved) < len(latencies):  # HubLink's retrieval alone, beside the chains
                out[strategy]["retrieval_only"] = _summary(
                    retrieved, [s for s, by in zip(scores, answered_by) if by != "chain"]
                )
        out["service_peak_rss_mib"] = rss_mib(proc.pid)[1]
    finally:
        proc.send_signal(signal.SIGTERM)
        out["exit"] = proc.wait(timeout=120)
    return out


def paths(args: argparse.Namespace) -> dict:
    """Hub path enumeration of the graph in Postgres over every hub root, in batches as the build
    reads them, in each form (a query per hop level, the recursive CTE): best of `--rounds`, and
    whether the CTE gives the same paths."""
    from kgqa_procedures.udfs import UdfContext

    from kgqa.graph.layout import layout_of
    from kgqa.postgres.graph_paths import PATH_FORMS

    ws = _workspace(args, read_only=True)
    params = IndexParams()
    layout = layout_of(ws.store)
    ctx = UdfContext(frozenset(params.hub_types), params.min_out_degree, params.criteria_mode)
    roots = sorted(r[0] for r in layout.hub_root_candidates(ctx))
    ctx.root_ids = set(roots)
    batch, forms, found = params.hubs_per_batch, {}, {}
    for form in PATH_FORMS:
        layout.path_form = form  # type: ignore[attr-defined]
        best = float("inf")
        for _ in range(args.rounds):
            start = time.perf_counter()
            hashes = set()
            for i in range(0, len(roots), batch):
                hashes.update(
                    r[4]
                    for r in layout.hub_paths(
                        roots[i : i + batch], params.boundary_triples, params.effective_max_path_length, ctx
                    )
                )
            best = min(best, time.perf_counter() - start)
        found[form] = hashes
        forms[form] = {"seconds": best, "same": hashes == found[PATH_FORMS[0]]}
    ws.close()
    return {
        "hubs": len(roots),
        "paths": len(found[PATH_FORMS[0]]),
        "batch": batch,
        "rounds": args.rounds,
        "forms": forms,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "op", choices=("load", "build", "walk", "reference", "probe", "sync", "query", "serve", "paths", "update")
    )
    ap.add_argument("--db", required=True)
    ap.add_argument("--graph")
    ap.add_argument("--questions")
    ap.add_argument("--strategy", default="direct", choices=("direct", "traversal"))
    ap.add_argument("--store", default="kuzu", choices=("kuzu", "pgvector"))
    ap.add_argument("--pg-dsn")
    ap.add_argument("--graph-in", default="kuzu", choices=("kuzu", "postgres"), help="Where the graph lives.")
    ap.add_argument("--index", help="The index (and, with --graph postgres, graph) name in Postgres.")
    ap.add_argument("--workers", type=int, default=0, help="build: the shared build with N worker processes.")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--sample", type=float, default=1.0)
    ap.add_argument("--texts", help="probe: a JSON list of texts to embed.")
    ap.add_argument("--rounds", type=int, default=2, help="paths: rounds per form (the best is kept).")
    ap.add_argument("--changes", type=int, default=100, help="update: papers gaining (and losing) a keyword.")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--param",
        action="append",
        default=[],
        help="serve: a retriever parameter KEY=VALUE sent with every question (chains=0: HubLink's retrieval only).",
    )
    args = ap.parse_args()
    Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    ops = {
        "load": load,
        "build": build,
        "walk": walk,
        "reference": reference,
        "probe": probe,
        "sync": sync,
        "query": query,
        "serve": serve,
        "paths": paths,
        "update": update,
    }
    out = ops[args.op](args)
    out["peak_rss_mib"] = _peak_rss_mib()
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
