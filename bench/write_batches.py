"""A build's write batches on an index the size of the 10^6 run (issue 30: build / model), without
embedding it: an index with the same table sizes (49,632 hubs, 842,956 paths, 1,533,755 texts with random
unit vectors, 7.4 M HubVectors at `--scale 1`) is filled by COPY once, then for each checkpoint threshold
a fresh copy of it gets `--batches` batches of 200 new hubs written with the build's own queries
(existing_texts, insert_texts, insert_hubs, insert_paths, insert_vectors, COMMIT), each threshold in its
own process (so its peak RSS is its own). Prints seconds per batch by query and the peak RSS.

    python bench/write_batches.py --work /tmp/wb --scale 1 --thresholds 16,128,256 --batches 10

With `--scale 0 --pool MIB` it writes batches into an empty index in a page cache of that size, which shows
where the batches stop fitting (kgqa/memory.py `write_bytes`): a batch whose COMMIT finds Kùzu's page
cache full is reported with the texts written before it.

Kùzu checkpoints after a commit that takes its write-ahead log past the threshold (16 MiB by default,
so after every batch of a build); `kgqa index build` raises it while it writes (kgqa/memory.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import kuzu
import numpy as np
import pyarrow as pa

from kgqa import assets
from kgqa.graph.store import GraphStore
from kgqa.memory import MIB, peak_rss_bytes
from kgqa.vectorstores.kuzu_store import KuzuHubVectorStore, text_table

#: The 10^6 run's index (docs/scale.md) and one build batch of it (200 hubs of its averages).
SIZES = {"hubs": 49_632, "paths": 842_956, "texts": 1_533_755, "vectors": 7_400_000}
BATCH = {"hubs": 200, "paths": 3_400, "new_texts": 6_200, "old_texts": 3_800, "vectors": 29_800}
DIM = 384
POOL = int(2.25 * 2**30)  # the page cache the default memory ceiling gives a build
LEVELS = ("triple", "entity", "predicate", "path")
CHUNK = 200_000


def _hash(prefix: str, i: int | str) -> str:
    return hashlib.md5(f"{prefix}{i}".encode()).hexdigest()


def _unit_vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    m = rng.standard_normal((n, DIM)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def new_index(path: Path) -> None:
    """A new database with HubLink's graph and index tables, made the way a build makes them."""
    store = GraphStore(path, create=True)
    KuzuHubVectorStore(store).ensure_schema(DIM)
    store.close()


def fill(path: Path, scale: float) -> dict:
    """An index of the 10^6 run's table sizes times `scale`, written by COPY (random vectors)."""
    sizes = {k: int(v * scale) for k, v in SIZES.items()}
    start = time.perf_counter()
    new_index(path)
    db = kuzu.Database(str(path), buffer_pool_size=POOL)
    conn = kuzu.Connection(db)
    rng = np.random.default_rng(7)
    hub_ids = [f"P{i:07d}" for i in range(sizes["hubs"])]
    n = len(hub_ids)
    hubs = pa.table(  # noqa: F841 - read by Kùzu's scan replacement
        {
            "id": hub_ids,
            "label": [f"Paper title number {i}" for i in range(n)],
            "depth": pa.array([0] * n, pa.int64()),
            "path_count": pa.array([17] * n, pa.int64()),
            "signature": [_hash("s", i) for i in range(n)],
            "built_at": pa.array([0] * n, pa.timestamp("us")),
        }
    )
    if n:
        conn.execute("COPY kgqa_Hub FROM hubs")
    owner = np.sort(rng.integers(0, n, sizes["paths"]))
    text = "'A paper title of some length' has author 'Some Author', which has affiliation 'An Institute' {}"
    for lo in range(0, sizes["paths"], CHUNK):
        hi = min(sizes["paths"], lo + CHUNK)
        paths = pa.table(
            {
                "hash": [_hash("p", i) for i in range(lo, hi)],
                "hub_id": [hub_ids[h] for h in owner[lo:hi]],
                "text": [text.format(i) for i in range(lo, hi)],
                "triples": ['[["P1","A title","author","A1","Some Author"]] ' + str(i) for i in range(lo, hi)],
                "length": pa.array([2] * (hi - lo), pa.int64()),
            }
        )
        conn.execute("COPY kgqa_HubPath FROM paths")
        edges = pa.table({"from": [hub_ids[h] for h in owner[lo:hi]], "to": paths.column("hash")})  # noqa: F841
        conn.execute("COPY kgqa_HasPath FROM edges")
    for lo in range(0, sizes["texts"], CHUNK):
        hi = min(sizes["texts"], lo + CHUNK)
        vectors = _unit_vectors(rng, hi - lo)
        texts = text_table(  # noqa: F841
            {_hash("t", i): (text.format(i), v) for i, v in zip(range(lo, hi), vectors)}, DIM, half=True
        )
        conn.execute("COPY kgqa_EmbeddedText FROM texts")
    for lo in range(0, sizes["vectors"], 5 * CHUNK):
        hi = min(sizes["vectors"], lo + 5 * CHUNK)
        p, t = rng.integers(0, sizes["paths"], hi - lo), rng.integers(0, sizes["texts"], hi - lo)
        embeds = pa.table(  # noqa: F841
            {
                "from": [_hash("p", i) for i in p],
                "to": [_hash("t", i) for i in t],
                "level": [LEVELS[i % 4] for i in range(hi - lo)],
            }
        )
        conn.execute("COPY kgqa_Embeds FROM embeds")
    conn.execute("CHECKPOINT")
    conn.close()
    db.close()
    return {**sizes, "fill_s": round(time.perf_counter() - start, 1)}


def _batch_tables(rng: np.random.Generator, serial: int, texts: int) -> dict:
    tag = f"b{serial}-{int(rng.integers(1 << 40))}"
    hubs = [f"N{tag}-{i}" for i in range(BATCH["hubs"])]
    per_hub = BATCH["paths"] // BATCH["hubs"]
    paths = [(_hash("np" + tag, i), hubs[i // per_hub]) for i in range(BATCH["paths"])]
    new = {
        _hash("nt" + tag, i): (f"text {tag} {i} " * 8, v) for i, v in enumerate(_unit_vectors(rng, BATCH["new_texts"]))
    }
    old = rng.integers(0, texts, BATCH["old_texts"]) if texts else []  # an empty index: every text is new
    needed = list(new) + [_hash("t", i) for i in old]
    targets = [needed[i] for i in rng.integers(0, len(needed), BATCH["vectors"])]
    targets[: len(new)] = list(new)  # every new text is embedded by some path
    n = BATCH["hubs"]
    return {
        "needed": needed,
        "texts": text_table(new, DIM, half=True),
        "hubs": pa.table(
            {
                "id": hubs,
                "label": hubs,
                "depth": pa.array([0] * n, pa.int64()),
                "path_count": pa.array([per_hub] * n, pa.int64()),
                "signature": hubs,
            }
        ),
        "paths": pa.table(
            {
                "hash": [p for p, _ in paths],
                "hub_id": [h for _, h in paths],
                "text": ["t" * 160] * len(paths),
                "triples": ["x" * 240] * len(paths),
                "length": pa.array([2] * len(paths), pa.int64()),
            }
        ),
        "vectors": pa.table(
            {
                "path": [paths[i % len(paths)][0] for i in range(len(targets))],
                "text": targets,
                "level": [LEVELS[i % 4] for i in range(len(targets))],
            }
        ),
    }


def _run_rows(conn: kuzu.Connection, name: str, kgqa_rows: pa.Table, **tokens: int) -> None:
    conn.execute(assets.cypher(name, **tokens).text)  # reads kgqa_rows from this frame


def write_batches(path: Path, threshold_mib: int, batches: int, scale: float, pool: int = POOL) -> dict:
    """`batches` build batches written into the index at `path` with Kùzu's checkpoint threshold set, in a
    page cache of `pool` bytes; the first batch whose COMMIT finds the cache full ends the run."""
    db = kuzu.Database(str(path), buffer_pool_size=pool)
    conn = kuzu.Connection(db)
    conn.execute(assets.cypher("meta/checkpoint_threshold", bytes=threshold_mib * MIB).text)
    rng = np.random.default_rng(11)
    texts = int(SIZES["texts"] * scale)
    steps: dict[str, list[float]] = {}

    def timed(step: str, work: Callable[..., object], *args: object, **kwargs: object) -> None:
        t0 = time.perf_counter()
        work(*args, **kwargs)
        steps.setdefault(step, []).append(time.perf_counter() - t0)

    existing = assets.cypher("indexing/existing_texts").text
    written, failed = 0, None
    for serial in range(batches):
        t = _batch_tables(rng, serial, texts)
        timed("existing_texts", conn.execute, existing, {"hashes": t["needed"]})
        try:
            conn.execute("BEGIN TRANSACTION")
            timed("insert_texts", _run_rows, conn, "indexing/insert_texts", t["texts"], dim=DIM)
            timed("insert_hubs", _run_rows, conn, "indexing/insert_hubs", t["hubs"])
            timed("insert_paths", _run_rows, conn, "indexing/insert_paths", t["paths"])
            timed("insert_vectors", _run_rows, conn, "indexing/insert_vectors", t["vectors"])
            timed("commit", conn.execute, "COMMIT")
        except RuntimeError as exc:
            failed = {"batch": serial + 1, "texts_before": texts + written, "error": str(exc)}
            break
        written += BATCH["new_texts"]
    if failed is None:
        timed("final checkpoint", conn.execute, assets.cypher("meta/checkpoint").text)
    conn.close()
    db.close()
    if failed is not None:
        return {"threshold_mib": threshold_mib, "pool_mib": pool // MIB, "failed": failed}
    batch = [sum(v[i] for k, v in steps.items() if k != "final checkpoint") for i in range(batches)]
    return {
        "threshold_mib": threshold_mib,
        "pool_mib": pool // MIB,
        "texts_after": texts + written,
        "batches": batches,
        "per_batch_s": round((sum(batch) + steps["final checkpoint"][0]) / batches, 3),
        "steps_s": {k: round(sum(v), 2) for k, v in steps.items()},
        "checkpointing_commits": sum(1 for s in steps["commit"] if s > 1.0),
        "peak_rss_mib": peak_rss_bytes() // MIB,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, required=True, help="a folder for the filled index and its copies")
    ap.add_argument("--scale", type=float, default=1.0, help="table sizes as a share of the 10^6 run's")
    ap.add_argument("--thresholds", default="16,128,256", help="checkpoint thresholds in MiB (16: Kùzu's default)")
    ap.add_argument("--batches", type=int, default=10)
    ap.add_argument(
        "--pool",
        type=int,
        default=POOL // MIB,
        help="the page cache in MiB (default: a build's under the default ceiling)",
    )
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # internal: one threshold, this process
    ap.add_argument("--fill-only", action="store_true", help=argparse.SUPPRESS)  # internal: the fill, this process
    args = ap.parse_args()
    filled = args.work / "filled.kuzu"
    if args.one is not None:
        print(json.dumps(write_batches(args.work / "copy.kuzu", args.one, args.batches, args.scale, args.pool * MIB)))
        return
    if args.fill_only:
        print(json.dumps({**fill(filled, args.scale), "scale": args.scale}))
        return
    args.work.mkdir(parents=True, exist_ok=True)
    sizes = json.loads((args.work / "filled.json").read_text()) if (args.work / "filled.json").exists() else None
    if sizes is None or sizes.get("scale") != args.scale:
        for old in (filled, filled.with_name(filled.name + ".wal")):
            old.unlink(missing_ok=True)
        # in a process of its own: on Linux a child's peak RSS starts from its parent's at the fork, so
        # a fill in this process would show as every threshold's peak
        cmd = [sys.executable, __file__, "--work", str(args.work), "--scale", str(args.scale), "--fill-only"]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        sizes = json.loads(out.strip().splitlines()[-1])
        (args.work / "filled.json").write_text(json.dumps(sizes))
    print(
        f"# index: {sizes['hubs']:,} hubs, {sizes['paths']:,} paths, {sizes['texts']:,} texts, {sizes['vectors']:,} "
        f"HubVectors (filled by COPY in {sizes['fill_s']} s); batches of {BATCH['hubs']} hubs, "
        f"{BATCH['new_texts']:,} new texts, {BATCH['vectors']:,} HubVectors; page cache {args.pool:,} MiB; "
        f"{platform.node()}, {os.cpu_count()} cores, Kùzu {kuzu.__version__}"
    )
    print(
        "| checkpoint threshold | s a batch (final checkpoint included) | insert_texts s | insert_vectors s | commit s | checkpointing commits (> 1 s) | final checkpoint s | peak RSS MiB |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for mib in (int(x) for x in args.thresholds.split(",")):
        copy = args.work / "copy.kuzu"
        copy.with_name(copy.name + ".wal").unlink(missing_ok=True)
        shutil.copy(filled, copy)
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--work",
                str(args.work),
                "--scale",
                str(args.scale),
                "--batches",
                str(args.batches),
                "--one",
                str(mib),
                "--pool",
                str(args.pool),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        copy.unlink()
        if "failed" in r:
            f = r["failed"]
            print(
                f"| {mib} MiB | batch {f['batch']} failed, {f['texts_before']:,} texts before it: {f['error']} |",
                flush=True,
            )
            continue
        s, n = r["steps_s"], r["batches"]
        print(
            f"| {mib} MiB | {r['per_batch_s']:.2f} | {s['insert_texts'] / n:.2f} | {s['insert_vectors'] / n:.2f} | "
            f"{s['commit'] / n:.2f} | {r['checkpointing_commits']} of {n} | {s['final checkpoint']:.2f} | {r['peak_rss_mib']:,} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
