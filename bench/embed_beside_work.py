"""The ONNX embedder's rate alone and beside other work, with its worker threads spinning between
operators (ONNX Runtime's default) and sleeping (HubLink's setting, kgqa/embeddings/onnx_runtime.py).

A build embeds on one thread while its main thread writes and enumerates; this stands a process in for
that thread (busy `--busy` of each 100 ms, on one core) and measures texts per second in each of the
four cases, `--rounds` times in alternation:

    python bench/embed_beside_work.py --db DB.kuzu [--texts 6000] [--rounds 2] [--busy 0.7]

The texts are a seeded sample of the index's own (`--db`, a built Kùzu index) or, without one, the demo
graph's triples verbalised. Offline; prints a table and, with --json, the raw rates."""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing as mp
import random
import statistics
import time
from typing import Any

#: ONNX Runtime's session option for intra-op workers that wait by spinning.
SPINNING = "session.intra_op.allow_spinning"


def index_texts(db: str, n: int) -> list[str]:
    """A seeded sample of `n` of the index's embedded texts (read-only)."""
    import kuzu

    database = kuzu.Database(db, read_only=True, buffer_pool_size=512 << 20)
    rows = kuzu.Connection(database).execute("MATCH (t:kgqa_EmbeddedText) RETURN t.text LIMIT 400000").get_all()
    texts = [r[0] for r in rows]
    return random.Random(0).sample(texts, min(n, len(texts)))


def demo_texts(n: int) -> list[str]:
    """`n` texts verbalised from the demo graph's triples (varied by a counter: no two alike)."""
    from kgqa.demo import demo_graph_path

    with demo_graph_path().open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [
        f"{r['subject_label']} {r['predicate']} {r['object_label'] or r['object']} (item {i})"
        for i, r in ((i, rows[i % len(rows)]) for i in range(n))
    ]


def busy(stop: Any, share: float) -> None:
    """Keep one core busy `share` of every 100 ms until `stop` is set."""
    while not stop.is_set():
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.1 * share:
            sum(i * i for i in range(2000))
        time.sleep(0.1 * (1 - share))


def rate(texts: list[str], spinning: bool, beside: float) -> float:
    """Texts per second of a fresh int8 embedder, in batches like a build's, beside a busy process or not."""
    import onnxruntime as ort

    from kgqa.embeddings import get_embedder

    plain = ort.SessionOptions

    class Options(plain):  # type: ignore[misc,valid-type]
        def add_session_config_entry(self, key: str, value: str) -> None:
            super().add_session_config_entry(key, ("1" if spinning else "0") if key == SPINNING else value)

    ort.SessionOptions = Options
    try:
        embedder = get_embedder("sentence-transformers/all-MiniLM-L6-v2", backend="onnx-int8")
        embedder._sessions.clear()  # type: ignore[attr-defined]
        embedder.embed(["warm-up"] * 64)
        embedder.forget()
        stop = mp.Event()
        other = mp.Process(target=busy, args=(stop, beside)) if beside else None
        if other is not None:
            other.start()
            time.sleep(0.5)
        start = time.perf_counter()
        for i in range(0, len(texts), 4096):
            embedder.embed(texts[i : i + 4096])
        seconds = time.perf_counter() - start
        if other is not None:
            stop.set()
            other.join()
        embedder.forget()
        embedder._sessions.clear()  # type: ignore[attr-defined]
        return len(texts) / seconds
    finally:
        ort.SessionOptions = plain


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", help="A built Kùzu index whose texts to embed (default: the demo graph's).")
    ap.add_argument("--texts", type=int, default=6000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--busy", type=float, default=0.7, help="The other process's busy share of one core.")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    texts = index_texts(args.db, args.texts) if args.db else demo_texts(args.texts)
    cases = [(s, b) for s in (True, False) for b in (0.0, args.busy)]
    rates: dict[tuple[bool, float], list[float]] = {c: [] for c in cases}
    for _ in range(args.rounds):
        for spinning, beside in cases:
            rates[(spinning, beside)].append(rate(texts, spinning, beside))
    if args.json:
        print(json.dumps([{"spinning": s, "busy": b, "texts_per_s": r} for (s, b), r in rates.items()]))
        return
    print(f"{len(texts):,} texts, int8 ONNX embedder, {args.rounds} rounds alternated (texts/s, each round)")
    print(f"| workers | alone | beside a process busy {args.busy:.0%} of a core |")
    print("|---|---|---|")
    for spinning in (True, False):
        alone, loaded = rates[(spinning, 0.0)], rates[(spinning, args.busy)]
        cells = [", ".join(f"{r:.0f}" for r in v) + f" (median {statistics.median(v):.0f})" for v in (alone, loaded)]
        print(f"| {'spinning (default)' if spinning else 'sleeping (HubLink)'} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
