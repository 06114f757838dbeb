"""The HNSW step of a first build at the 10^6 run's size (issue 30: build / model), without embedding 1.5 M
texts: an index whose EmbeddedText table holds `--texts` vectors (1,533,755 in the 10^6 run) is filled by
COPY once; each run then makes the HNSW index on a fresh copy of it, in its own process (so its peak RSS
is its own), and prints wall seconds, process CPU seconds, the page cache it ran with and the peak RSS.
The vectors are random unit vectors, or those of a built index (`--vectors-from`), or `--texts` blends
of two of those each (`--mix`): random vectors are a far harder case for HNSW than sentence embeddings.

    python bench/hnsw_step.py --work /tmp/hs --vectors-from n1e5/graph.kuzu --mix --texts 1533755 \
        --runs streamed@2304,build@3G --model

A run is `streamed@MiB` or `cached@MiB` (Kùzu's CREATE_VECTOR_INDEX with the vectors read from their pages
or held in a page cache of that many MiB), or `build@CEILING`: what a build does under `--memory CEILING`
(`KuzuHubVectorStore.ensure_ann_index`, which picks the page cache and the variant), or `fallback@MiB`:
that method in a fixed page cache of that size, told the vectors fit there cached (as an estimate that
falls short would), so that what it does when the cached step runs out of cache is measured. With `--model` each
run's process first loads the int8 embedder and embeds a few batches, as a build's process has.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import kuzu
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from write_batches import DIM, new_index

from kgqa.errors import StoreError
from kgqa.graph.store import GraphStore
from kgqa.memory import MIB, MemoryCeiling, peak_rss_bytes
from kgqa.vectorstores.kuzu_store import KuzuHubVectorStore, text_table
from kgqa.vectorstores.raw import raw_matrix

CHUNK = 100_000
FILL_POOL = 2304 * MIB
QUERIES = ("indexing/create_vector_index", "indexing/create_vector_index_streamed")


def fill(path: Path, texts: int, source: Path | None, mix: bool) -> dict[str, Any]:
    """A new index whose texts table holds `texts` vectors: random unit vectors; or with `source`, that
    index's own vectors, or with `mix` as many as asked, each a random blend of two of them."""
    start = time.perf_counter()
    new_index(path)
    db = kuzu.Database(str(path), buffer_pool_size=FILL_POOL)
    conn = kuzu.Connection(db)
    rng = np.random.default_rng(7)
    real = _read_vectors(source) if source is not None else None
    if real is not None and not mix:
        texts = len(real)
    line = "'A paper title of some length' has author 'Some Author', which has affiliation 'An Institute' {}"
    for lo in range(0, texts, CHUNK):
        hi = min(texts, lo + CHUNK)
        if real is None:
            m = rng.standard_normal((hi - lo, DIM)).astype(np.float32)
        elif mix:
            w = rng.random((hi - lo, 1), dtype=np.float32)
            m = w * real[rng.integers(0, len(real), hi - lo)] + (1 - w) * real[rng.integers(0, len(real), hi - lo)]
        else:
            m = real[lo:hi].copy()
        m /= np.linalg.norm(m, axis=1, keepdims=True)
        rows = {f"{i:032x}": (line.format(i), v) for i, v in zip(range(lo, hi), m)}
        batch = text_table(rows, DIM, half=True)  # noqa: F841 - read by Kùzu's scan replacement
        conn.execute("COPY kgqa_EmbeddedText FROM batch")
    conn.execute("CHECKPOINT")
    conn.close()
    db.close()
    kind = "random" if real is None else "blends of" if mix else "copied from"
    return {
        "texts": texts,
        "vectors": f"{kind} {source or 'a normal distribution'}",
        "fill_s": round(time.perf_counter() - start, 1),
        "db_mib": _mib(path),
    }


def _read_vectors(source: Path) -> np.ndarray:
    """Every text vector of the index at `source` (opened read-only), as a float32 matrix: read from the
    texts' BLOB copies (float16 in an index written since 26 November), 200,000 at a time (all 1.53 M of
    the 10^6 index at once fill a 1 GiB page cache)."""
    conn = kuzu.Connection(kuzu.Database(str(source), read_only=True, buffer_pool_size=1024 * MIB))
    total = conn.execute("MATCH (t:kgqa_EmbeddedText) RETURN count(*)").get_next()[0]
    parts = []
    for lo in range(0, total, 200_000):
        window = {"lo": lo, "hi": lo + 200_000}
        result = conn.execute(
            "MATCH (t:kgqa_EmbeddedText) WHERE offset(id(t)) >= $lo AND offset(id(t)) < $hi RETURN t.raw", window
        )
        raws = result.get_as_arrow(chunk_size=200_000).column(0).to_pylist()
        parts.append(raw_matrix(raws))
    return np.concatenate(parts).astype(np.float32)


def _mib(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file()) // MIB


def run_one(db: Path, spec: str, model: bool) -> dict[str, Any]:
    """One HNSW step on `db` in this process (the child): the figures as a dict."""
    kind, _, size = spec.partition("@")
    if model:
        _warm_model()
    seen: dict[str, Any] = {} if kind == "build" else {"pool_mib": int(size)}

    def tracer(name: str, _params: dict[str, Any] | None, seconds: float) -> None:
        if name in QUERIES:
            seen.update(query=name, seconds=seconds, pool_mib=store.pool_bytes // MIB)

    if kind == "fallback":  # an estimate that falls short: the cached variant is tried in this cache
        import kgqa.vectorstores.kuzu_store as kuzu_store

        kuzu_store.hnsw_plan = lambda pool, *_args, **_kw: (pool, True)
    if kind == "build":
        store = GraphStore(db, tracer=tracer, memory=MemoryCeiling.from_setting(size, "--runs build@"))
    else:
        store = GraphStore(db, tracer=tracer, buffer_pool_mib=int(size))
    vstore = KuzuHubVectorStore(store, DIM)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    error = None
    try:
        if kind in ("build", "fallback"):
            vstore.ensure_ann_index()
        else:
            store.load_extension("vector")
            name = QUERIES[0] if kind == "cached" else QUERIES[1]
            store.run(name, mu=vstore.ann.m, ml=2 * vstore.ann.m, efc=vstore.ann.ef_construction)
    except StoreError as exc:  # a page cache too small for the variant asked
        error = str(exc)[:300]
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    probe = np.ones(DIM, dtype=np.float32) / np.sqrt(DIM)
    hits = 0 if error else len(vstore.nearest_texts(probe, 10))
    store.close()
    chosen = "cached" if seen.get("query") == QUERIES[0] else "streamed"  # by ensure_ann_index
    return {
        "run": spec,
        "variant": kind if kind in ("cached", "streamed") else chosen,
        "page_cache_mib": seen.get("pool_mib"),
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "cores": round(cpu / wall, 2),
        "peak_rss_mib": peak_rss_bytes() // MIB,
        "ann_hits": hits,
        "model": model,
        "error": error,
    }


def _warm_model() -> None:
    """Load the int8 embedder and embed a few batches, as a build's process has before its HNSW step."""
    from kgqa.config import DEFAULT_EMBEDDING_MODEL
    from kgqa.embeddings import get_embedder

    embedder = get_embedder(DEFAULT_EMBEDDING_MODEL, backend="onnx-int8")
    embedder.embed([f"'Paper {i}' has research problem 'Problem {i % 97}'" for i in range(2_000)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, default=Path("hnsw-step"))
    ap.add_argument("--texts", type=int, default=1_533_755)
    ap.add_argument("--vectors-from", type=Path, help="the vectors of this index instead of random ones")
    ap.add_argument("--mix", action="store_true", help="--texts blends of two --vectors-from vectors each")
    ap.add_argument("--runs", default="streamed@2304,build@3G")
    ap.add_argument("--model", action="store_true", help="load and use the int8 embedder before each step")
    ap.add_argument("--child", nargs=2, metavar=("DB", "RUN"), help=argparse.SUPPRESS)
    ap.add_argument("--fill-child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run_one(Path(args.child[0]), args.child[1], args.model)))
        return
    if args.fill_child:
        print(json.dumps(fill(args.fill_child, args.texts, args.vectors_from, args.mix)))
        return
    args.work.mkdir(parents=True, exist_ok=True)
    base = args.work / "texts.kuzu"
    if not base.exists():  # in a process of its own: a child's peak RSS starts from its parent's (Linux)
        cmd = [sys.executable, __file__, "--fill-child", str(base), "--texts", str(args.texts)]
        cmd += (["--vectors-from", str(args.vectors_from)] if args.vectors_from else []) + (
            ["--mix"] if args.mix else []
        )
        print(subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout.strip(), flush=True)
    results = []
    for spec in args.runs.split(","):
        copy = args.work / "run.kuzu"
        for old in args.work.glob("run.kuzu*"):
            shutil.rmtree(old) if old.is_dir() else old.unlink()
        shutil.copyfile(base, copy)
        cmd = [sys.executable, __file__, "--child", str(copy), spec] + (["--model"] if args.model else [])
        out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
        results.append(json.loads(out.strip().splitlines()[-1]))
        print(json.dumps(results[-1]), flush=True)
    print(f"\n{platform.node()}: {base} ({_mib(base):,} MiB), Kùzu {kuzu.__version__}")
    print("| run | variant | page cache MiB | wall s | CPU s | cores | peak RSS MiB | result |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['run']} | {r['variant']} | {r['page_cache_mib'] or '-'} | {r['wall_s']} | {r['cpu_s']} | "
            f"{r['cores']} | {r['peak_rss_mib']:,} | {'failed: ' + r['error'][:80] if r['error'] else 'made'} |"
        )


if __name__ == "__main__":
    main()
