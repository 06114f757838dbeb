"""Hub paths in bulk: the Cypher enumeration query plus the HubVector texts of each path."""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace

from kgqa_procedures.udfs import UdfContext, triples_of

from kgqa.bulk import gc_paused
from kgqa.config import IndexParams
from kgqa.graph.layout import layout_of
from kgqa.graph.store import GraphStore
from kgqa.types import Triple, VectorLevel, text_hash
from kgqa.vectorstores.base import HubRecord, PathRecord


def vector_texts(path_text: str, triples: Iterable[Triple]) -> list[tuple[VectorLevel, str]]:
    """The texts a path is embedded under (thesis §4.2.6): the path text, each triple, each
    entity and each predicate, without repeats."""
    triples = list(triples)
    out: list[tuple[VectorLevel, str]] = [(VectorLevel.PATH, path_text)]
    out += [(VectorLevel.TRIPLE, t.text) for t in triples]
    for t in triples:
        out += [(VectorLevel.ENTITY, t.subject.text), (VectorLevel.ENTITY, t.object.text)]
    out += [(VectorLevel.PREDICATE, t.predicate) for t in triples]
    return list(dict.fromkeys((lvl, txt) for lvl, txt in out if txt))


def hashed_texts(path_text: str, triples: Iterable[Triple], texts: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """A path's HubVectors as (level, text hash) pairs (`vector_texts`); `texts` (text hash -> text)
    gains their texts."""
    vectors = []
    for level, txt in vector_texts(path_text, triples):
        th = text_hash(txt)
        texts[th] = txt
        vectors.append((level.value, th))
    return tuple(vectors)


def signature(path_hashes: Iterable[str]) -> str:
    """Digest of a hub's set of path hashes: equal iff the sets are equal (thesis Alg. 4)."""
    h = hashlib.sha256()
    for ph in sorted(set(path_hashes)):
        h.update(ph.encode("ascii"))
    return h.hexdigest()[:32]


def capped_paths(paths: list[PathRecord], cap: int) -> list[PathRecord]:
    """At most `cap` of a super-node's paths, chosen deterministically so that every kind of path keeps
    some: grouped by their predicate sequence, each group in path-hash order, taken round-robin over the
    groups (in the order of their predicates) until `cap`. The same graph always gives the same choice."""
    groups: dict[tuple[str, ...], list[PathRecord]] = defaultdict(list)
    for p in paths:
        groups[tuple(t.predicate for t in p.triples)].append(p)
    queues = [sorted(groups[k], key=lambda p: p.hash) for k in sorted(groups)]
    kept: list[PathRecord] = []
    for i in range(max(len(q) for q in queues)):
        for q in queues:
            if i < len(q):
                kept.append(q[i])
                if len(kept) == cap:
                    return kept
    return kept


def enumerate_paths(
    store: GraphStore,
    roots: list[str],
    params: IndexParams,
    timings: dict[str, float] | None = None,
    ctx: UdfContext | None = None,
    capped: dict[str, int] | None = None,
) -> tuple[dict[str, list[PathRecord]], dict[str, str], set[str]]:
    """All hub paths of `roots`, read through the graph's layout (one query on the triple layout;
    `ctx` holds the hub roots, as registered with the UDFs). Returns (paths by root, text by text hash,
    boundary entities = other hub roots that paths end at). The time spent making the HubVector
    texts is added to `timings["verbalise"]`, the rest to `timings["enumerate_paths"]`. A hub with
    more than `params.max_paths_per_hub` paths (a super-node) keeps that many (`capped_paths`), and only
    the kept paths get their HubVector texts; `capped` gains its root and its number of paths."""
    with gc_paused():  # a super-node makes hundreds of thousands of paths at once
        return _enumerate_paths(store, roots, params, timings, ctx, capped)


def _enumerate_paths(
    store: GraphStore,
    roots: list[str],
    params: IndexParams,
    timings: dict[str, float] | None,
    ctx: UdfContext | None,
    capped: dict[str, int] | None,
) -> tuple[dict[str, list[PathRecord]], dict[str, str], set[str]]:
    started, spent = time.perf_counter(), 0.0
    by_root: dict[str, list[PathRecord]] = defaultdict(list)
    texts: dict[str, str] = {}
    boundary: set[str] = set()
    seen: set[str] = set()
    rows = layout_of(store).hub_paths(roots, params.boundary_triples, params.effective_max_path_length, ctx)
    for root, ids, labels, preds, phash, ptext, *qualified in rows:
        if phash in seen:
            continue
        seen.add(phash)
        start = time.perf_counter()
        triples = triples_of(ids, labels, preds)
        if qualified:  # the edges' own properties (a user's rel tables), kept with the path's triples
            triples = tuple(replace(t, qualifiers=q) for t, q in zip(triples, qualified[0], strict=True))
        by_root[root].append(PathRecord(phash, root, ptext, triples, ()))
        spent += time.perf_counter() - start
        boundary.add(ids[-1])
    for root, paths in by_root.items():
        if len(paths) > params.max_paths_per_hub:  # a super-node: only the kept paths get their texts
            if capped is not None:
                capped[root] = len(paths)
            paths = capped_paths(paths, params.max_paths_per_hub)
        start = time.perf_counter()
        by_root[root] = [replace(p, vectors=hashed_texts(p.text, p.triples, texts)) for p in paths]
        spent += time.perf_counter() - start
    if timings is not None:
        timings["verbalise"] = timings.get("verbalise", 0.0) + spent
        timings["enumerate_paths"] = timings.get("enumerate_paths", 0.0) + time.perf_counter() - started - spent
    return by_root, texts, boundary


def with_path_texts(hubs: list[HubRecord], new_texts: dict[str, str], texts: dict[str, str]) -> list[HubRecord]:
    """The hubs with path texts replaced from `new_texts` (path hash -> text; missing ones keep
    theirs) and their HubVector texts recomputed; `texts` (text hash -> text) gains the new texts."""
    out = []
    for hub in hubs:
        paths = []
        for p in hub.paths:
            text = new_texts.get(p.hash, p.text)
            paths.append(replace(p, text=text, vectors=hashed_texts(text, p.triples, texts)))
        out.append(replace(hub, paths=tuple(paths)))
    return out
