"""Per-path and per-hub aggregation of scored HubVectors, vectorised with numpy.

Scoring every vector of 150 hubs yields tens of thousands of hits; the retriever needs, per hub path,
the best similarity to each query vector and the single best-matching vector (its level and text),
and per hub the best similarity to each query vector."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from kgqa.vectorstores.base import VectorHit


#: The similarity given to a text that contains an acronym component as a word.
ACRONYM_SIM = 0.95


@dataclass
class HitTable:
    """Hits grouped by path and by hub."""

    path_hashes: list[str]            # one entry per distinct path
    path_hubs: list[str]              # the hub of each path
    best_hit: list[VectorHit]         # each path's vector with the highest similarity to any query
    path_best: np.ndarray             # (paths, queries): best similarity per query vector
    hub_best: dict[str, np.ndarray]   # hub id -> (queries,) best similarity per query vector
    sims: dict[str, tuple[float, ...]]  # embedded text -> similarity to each query vector

    @classmethod
    def from_hits(cls, hits: list[VectorHit], n_queries: int, acronyms: dict[int, str] | None = None) -> "HitTable":
        """Group `hits` (any order) by path hash and hub id. `acronyms` maps query indices to
        acronyms ("ICSA") that a text containing them as a word matches by name (similarity
        raised to ACRONYM_SIM): embeddings rate "ICSA" poorly against "... Architecture (ICSA)"."""
        if not hits:
            return cls([], [], [], np.zeros((0, n_queries), np.float32), {}, {})
        sims = np.asarray([h.similarities for h in hits], dtype=np.float32).reshape(len(hits), n_queries)
        for qi, acronym in (acronyms or {}).items():
            word = re.compile(rf"(?<![A-Za-z0-9]){re.escape(acronym)}(?![A-Za-z0-9])")
            rows = [i for i, h in enumerate(hits) if acronym in h.text and word.search(h.text)]
            sims[rows, qi] = np.maximum(sims[rows, qi], ACRONYM_SIM)
        path_index: dict[str, int] = {}
        codes = np.fromiter((path_index.setdefault(h.path_hash, len(path_index)) for h in hits),
                            dtype=np.int64, count=len(hits))
        n_paths = len(path_index)
        path_best = np.full((n_paths, n_queries), -np.inf, dtype=np.float32)
        np.maximum.at(path_best, codes, sims)
        row_max = sims.max(axis=1)
        order = np.lexsort((-row_max, codes))          # by path, best row first
        first = order[np.r_[True, codes[order][1:] != codes[order][:-1]]]
        best_hit = [hits[i] for i in first]            # first rows are in path-code order
        path_hubs = [h.hub_id for h in best_hit]
        hub_index: dict[str, int] = {}
        hub_codes = np.fromiter((hub_index.setdefault(hub, len(hub_index)) for hub in path_hubs),
                                dtype=np.int64, count=n_paths)
        hub_matrix = np.full((len(hub_index), n_queries), -np.inf, dtype=np.float32)
        np.maximum.at(hub_matrix, hub_codes, path_best)
        return cls([h.path_hash for h in best_hit], path_hubs, best_hit, path_best,
                   {hub: hub_matrix[i] for hub, i in hub_index.items()},
                   {h.text: tuple(float(x) for x in row) for h, row in zip(hits, sims)} if acronyms
                   else {h.text: h.similarities for h in hits})


_ACRONYM = re.compile(r"[A-Z][A-Z0-9&]{1,9}")


def acronym_components(components: list[str]) -> dict[int, str]:
    """Query indices (1-based, after the question) of the components that are acronyms."""
    return {i + 1: c for i, c in enumerate(components) if _ACRONYM.fullmatch(c) and not c.isdigit()}
