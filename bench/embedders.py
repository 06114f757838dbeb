"""Embedding throughput and fidelity: torch (sentence-transformers) against ONNX Runtime fp32 and
dynamic int8, in one run, on texts of the kind an index embeds (ORKG labels and verbalised triples).

Each backend embeds the same texts in batches of 64 sorted by length, with intra-op threads = cores
(torch's default; ORT's session option); every backend is warmed up on other texts first and timed
--rounds times (best round reported: the machine is shared). Fidelity: cosine of each vector to the
torch fp32 vector of the same text.

    python bench/embedders.py [--texts 3000] [--rounds 2] [--out bench/results/embedders.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

from tables import emit

from kgqa.config import cache_dir
from kgqa.embeddings import get_embedder
from kgqa.embeddings.onnx_runtime import cpu_count

GRAPH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "orkg" / "graph_gv3.json"


def orkg_texts(limit: int) -> list[str]:
    """Distinct labels and 'subject predicate object' sentences from the ORKG graph."""
    texts: dict[str, None] = {}
    for r in json.loads(GRAPH.read_text(encoding="utf-8")):
        subject = (r.get("entity_subject") or {}).get("text") or ""
        obj = (r.get("entity_object") or {}).get("text") or ""
        for t in (subject, obj, f"{subject} {r.get('predicate', '')} {obj}".strip()):
            if t:
                texts[t] = None
    return list(texts)[:limit]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    load_at_start = os.getloadavg()[0]
    texts = orkg_texts(args.texts + 200)
    warm, texts = texts[:200], texts[200:]
    results = {}
    vectors = {}
    for backend in ("torch", "onnx", "onnx-int8"):
        embedder = get_embedder("all-MiniLM-L6-v2", 64, backend, cache_dir())
        started = time.perf_counter()
        embedder.embed(warm)  # loads the model (and exports the ONNX file if it is missing)
        load_s = time.perf_counter() - started
        best = float("inf")
        for _ in range(args.rounds):
            fresh = get_embedder("all-MiniLM-L6-v2", 64, backend, cache_dir())  # no per-process memo
            fresh.embed(warm[:20])
            t = time.perf_counter()
            vectors[backend] = fresh.embed(texts)
            best = min(best, time.perf_counter() - t)
        results[backend] = (embedder.label, len(texts) / best, load_s)
    base = vectors["torch"]
    lines = [
        f"Embedding {len(texts)} ORKG texts (labels and triple sentences), batch 64 sorted by length, "
        f"{cpu_count()} intra-op threads; best of {args.rounds} rounds; {os.cpu_count()} cores, "
        f"{platform.machine()}, load average {load_at_start:.2f} at the start; offline.",
        "",
        "| embedder | texts/s | × torch | first load s | mean cosine to torch fp32 | min cosine |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for backend, (label, rate, load_s) in results.items():
        cos = (vectors[backend] * base).sum(axis=1)
        lines.append(
            f"| {label} | {rate:.0f} | {rate / results['torch'][1]:.2f} | {load_s:.1f} | "
            f"{cos.mean():.6f} | {cos.min():.6f} |"
        )
    emit(lines, args.out)


if __name__ == "__main__":
    main()
