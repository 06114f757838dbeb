"""Per-path and per-hub aggregation of scored HubVectors, vectorised with numpy.

Scoring every vector of 150 hubs yields tens of thousands of hits; the retriever needs, per hub path,
the best similarity to each query vector and the single best-matching vector (its level and text),
and per hub the best similarity to each query vector."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from kgqa.vectorstores.base import ScoredVectors, VectorHit


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
    def from_scored(cls, scored: ScoredVectors, acronyms: dict[int, str] | None = None) -> HitTable:
        """Group scored vectors (any row order) by path hash and hub id. `acronyms` maps query
        indices to acronyms ("ICSA") that a text containing them as a word matches by name
        (similarity raised to ACRONYM_SIM): embeddings rate "ICSA" poorly against "... (ICSA)"."""
        n_queries = scored.sims.shape[1]
        if not len(scored):
            return cls([], [], [], np.zeros((0, n_queries), np.float32), {}, {})
        distinct_rows, first_rows = np.unique(scored.text_rows, return_index=True)  # each text's first vector
        row_text = {r: scored.texts[i] for r, i in zip(distinct_rows.tolist(), first_rows.tolist())}
        text_sims = scored.sims.copy() if acronyms else scored.sims
        for qi, acronym in (acronyms or {}).items():
            word = re.compile(rf"(?<![A-Za-z0-9]){re.escape(acronym)}(?![A-Za-z0-9])")
            rows = [r for r, text in row_text.items() if acronym in text and word.search(text)]
            text_sims[rows, qi] = np.maximum(text_sims[rows, qi], ACRONYM_SIM)
        sims = text_sims[scored.text_rows]
        path_index: dict[str, int] = {}
        codes = np.fromiter((path_index.setdefault(ph, len(path_index)) for ph in scored.path_hashes),
                            dtype=np.int64, count=len(scored))
        n_paths = len(path_index)
        path_best = np.full((n_paths, n_queries), -np.inf, dtype=np.float32)
        np.maximum.at(path_best, codes, sims)
        # each path's best row; ties by text, then level, so the choice never depends on row order
        text_rank = np.zeros(len(text_sims), dtype=np.int64)
        for rank, r in enumerate(sorted(row_text, key=row_text.__getitem__)):
            text_rank[r] = rank
        level_rank = {lvl: i for i, lvl in enumerate(sorted(set(scored.levels)))}
        tie = text_rank[scored.text_rows] * len(level_rank) + np.fromiter(
            (level_rank[lvl] for lvl in scored.levels), dtype=np.int64, count=len(scored))
        order = np.lexsort((tie, -sims.max(axis=1), codes))
        first = order[np.r_[True, codes[order][1:] != codes[order][:-1]]]  # in path-code order
        best_sims = sims[first].tolist()
        best_hit = [VectorHit(scored.hub_ids[i], scored.path_hashes[i], scored.levels[i], scored.texts[i],
                              tuple(best_sims[j])) for j, i in enumerate(first.tolist())]
        path_hubs = [h.hub_id for h in best_hit]
        hub_index: dict[str, int] = {}
        hub_codes = np.fromiter((hub_index.setdefault(hub, len(hub_index)) for hub in path_hubs),
                                dtype=np.int64, count=n_paths)
        hub_matrix = np.full((len(hub_index), n_queries), -np.inf, dtype=np.float32)
        np.maximum.at(hub_matrix, hub_codes, path_best)
        values = text_sims.tolist()
        return cls([h.path_hash for h in best_hit], path_hubs, best_hit, path_best,
                   {hub: hub_matrix[i] for hub, i in hub_index.items()},
                   {text: tuple(values[r]) for r, text in row_text.items()})


_ACRONYM = re.compile(r"[A-Z][A-Z0-9&]{1,9}")


def acronym_components(components: list[str]) -> dict[int, str]:
    """Query indices (1-based, after the question) of the components that are acronyms."""
    return {i + 1: c for i, c in enumerate(components) if _ACRONYM.fullmatch(c) and not c.isdigit()}
