"""HUBINDEXING (thesis Alg. 2–7): find hub roots, enumerate paths in bulk, embed, store; rebuild
only hubs whose path-hash set changed, so an unchanged graph rebuilds nothing and an interrupted
build resumes where it stopped."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from kgqa.config import IndexParams
from kgqa.embeddings.base import Embedder
from kgqa.errors import EntityNotFoundError
from kgqa.graph.reader import entities_by_ids
from kgqa.graph.store import GraphStore
from kgqa.graph.traversal import HubRootSearch, both_directions
from kgqa.indexing.metadata import IndexInfo, check_compatible, read_info, write_info
from kgqa.indexing.paths import enumerate_paths, signature
from kgqa.progress import ProgressFn, no_progress
from kgqa.types import Direction, EntityWithDirection
from kgqa.vectorstores.base import HubRecord, HubVectorStore, IndexCounts
from kgqa_procedures.udfs import UdfContext, register_udfs

#: A verbaliser replaces the template path texts (e.g. an LLM); offline keeps them.
PathTextRewriter = Callable[[list], list[str]]


@dataclass
class BuildReport:
    """What one `index build` did."""

    hub_roots: int = 0
    hubs_checked: int = 0
    hubs_rebuilt: int = 0
    hubs_unchanged: int = 0
    hubs_removed: int = 0
    hubs_without_paths: int = 0
    paths_written: int = 0
    vectors_written: int = 0
    texts_embedded: int = 0
    texts_reused: int = 0
    counts: IndexCounts = field(default_factory=lambda: IndexCounts(0, 0, 0, 0))
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def nothing_to_do(self) -> bool:
        """True when the stored index already matched the graph."""
        return self.hubs_rebuilt == 0 and self.hubs_removed == 0


class _Timer:
    def __init__(self, timings: dict[str, float], phase: str) -> None:
        self.timings, self.phase = timings, phase

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.timings[self.phase] = self.timings.get(self.phase, 0.0) + time.perf_counter() - self.start


def _context(params: IndexParams) -> UdfContext:
    return UdfContext(frozenset(params.hub_types), params.min_out_degree, params.criteria_mode)


def build_index(store: GraphStore, vstore: HubVectorStore, embedder: Embedder, params: IndexParams, *,
                rebuild: bool = False, on_progress: ProgressFn = no_progress) -> BuildReport:
    """Build or bring up to date the HubLink index of the graph in `store`."""
    report = BuildReport()
    started = time.perf_counter()
    dim = embedder.dim
    info = read_info(store)
    if info is not None and not rebuild:
        check_compatible(IndexInfo(info.embedding_model, info.dim, info.params, "complete", {}),
                         embedder.name, dim)
    if rebuild:
        vstore.drop()
    vstore.ensure_schema(dim)
    write_info(store, IndexInfo(embedder.name, dim, params.fingerprint(), "building",
                                info.stats if info else {}))

    ctx = _context(params)
    register_udfs(store, ctx)
    with _Timer(report.timings, "find_roots"):
        candidates = {r[0]: r[1] for r in store.run("indexing/hub_root_candidates")}
        ctx.root_ids = set(candidates)
    report.hub_roots = len(candidates)
    stored = vstore.signatures()
    indexed: set[str] = set()

    def process(roots: list[str], depth: int) -> set[str]:
        boundary: set[str] = set()
        for i in range(0, len(roots), params.hubs_per_batch):
            batch = roots[i:i + params.hubs_per_batch]
            boundary |= _process_batch(store, vstore, embedder, params, batch, depth, candidates,
                                       stored, report)
            indexed.update(batch)
            on_progress("hubs", len(indexed), total_hint)
        return boundary & ctx.root_ids

    if not params.start_ids:
        total_hint: int | None = len(candidates)
        process(sorted(candidates), 0)
    else:
        total_hint = None
        missing = set(params.start_ids) - set(entities_by_ids(store, params.start_ids))
        if missing:
            raise EntityNotFoundError(f"start entit{'y' if len(missing) == 1 else 'ies'} not in the graph: "
                                      f"{', '.join(sorted(missing))}")
        search = HubRootSearch(store, ctx.root_ids.__contains__, params.uniform_hop_count)
        entities = both_directions(params.start_ids)
        depth = 0
        while entities and depth <= params.max_indexing_depth:
            with _Timer(report.timings, "find_roots"):
                found, entities = search.find(entities)
            new_roots = sorted({e.entity_id for e in found} - indexed)
            ends = process(new_roots, depth)
            entities = list(entities) + [EntityWithDirection(e, Direction.FORWARD) for e in sorted(ends - indexed)]
            depth += 1

    stale = sorted(set(stored) - indexed)
    with _Timer(report.timings, "write"):
        vstore.remove_hubs(stale)
        vstore.collect_garbage()
    with _Timer(report.timings, "ann_index"):
        vstore.ensure_ann_index()
    report.hubs_removed = len(stale)
    report.counts = vstore.counts()
    report.timings["total"] = time.perf_counter() - started
    write_info(store, IndexInfo(embedder.name, dim, params.fingerprint(), "complete", {
        "hubs": report.counts.hubs, "paths": report.counts.paths, "vectors": report.counts.vectors,
        "texts": report.counts.texts, "last_build_seconds": round(report.timings["total"], 3),
        "last_build_rebuilt": report.hubs_rebuilt}))
    return report


def _process_batch(store: GraphStore, vstore: HubVectorStore, embedder: Embedder, params: IndexParams,
                   roots: list[str], depth: int, labels: dict[str, str], stored: dict[str, str],
                   report: BuildReport) -> set[str]:
    with _Timer(report.timings, "enumerate_paths"):
        by_root, texts, boundary = enumerate_paths(store, roots, params)
    changed: list[HubRecord] = []
    for root in roots:
        paths = by_root.get(root, [])
        report.hubs_checked += 1
        if not paths:
            report.hubs_without_paths += 1
            continue
        sig = signature(p.hash for p in paths)
        if stored.get(root) == sig:
            report.hubs_unchanged += 1
            continue
        changed.append(HubRecord(root, labels.get(root, ""), depth, sig, tuple(paths)))
    if not changed:
        return boundary
    needed = list(dict.fromkeys(th for h in changed for p in h.paths for _, th in p.vectors))
    with _Timer(report.timings, "write"):
        have = vstore.existing_texts(needed)
    todo = [th for th in needed if th not in have]
    new_texts: dict[str, tuple[str, np.ndarray]] = {}
    if todo:
        with _Timer(report.timings, "embed"):
            vecs = embedder.embed([texts[th] for th in todo])
        new_texts = {th: (texts[th], v) for th, v in zip(todo, vecs)}
    with _Timer(report.timings, "write"):
        report.vectors_written += vstore.replace_hubs(changed, new_texts)
    report.texts_embedded += len(todo)
    report.texts_reused += len(have)
    report.hubs_rebuilt += len(changed)
    report.paths_written += sum(len(h.paths) for h in changed)
    return boundary
