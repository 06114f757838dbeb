"""Per-path and per-hub aggregation of scored HubVectors, vectorised with numpy.

Scoring every vector of 150 hubs yields tens of thousands of hits; the retriever needs, per hub path,
the best similarity to each query vector and the single best-matching vector (its level and text),
and per hub the best similarity to each query vector."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from operator import itemgetter

import numpy as np

from kgqa.vectorstores.base import ScoredVectors, VectorHit

#: The similarity given to a text that contains an acronym component as a word.
ACRONYM_SIM = 0.95


@dataclass
class HitTable:
    """Hits grouped by path and by hub."""

    path_hashes: list[str]  # one entry per distinct path
    path_hubs: list[str]  # the hub of each path
    best_hit: list[VectorHit]  # each path's vector with the highest similarity to any query
    path_best: np.ndarray  # (paths, queries): best similarity per query vector
    hub_best: dict[str, np.ndarray]  # hub id -> (queries,) best similarity per query vector
    sims: Mapping[str, tuple[float, ...]]  # embedded text -> similarity to each query vector

    @classmethod
    def from_scored(cls, scored: ScoredVectors, acronyms: dict[int, str] | None = None) -> HitTable:
        """Group scored vectors (any row order) by path hash and hub id. `acronyms` maps query
        indices to acronyms ("ICSA") that a text containing them as a word matches by name
        (similarity raised to ACRONYM_SIM): embeddings rate "ICSA" poorly against "... (ICSA)"."""
        n_queries = scored.sims.shape[1]
        if not len(scored):
            return cls([], [], [], np.zeros((0, n_queries), np.float32), {}, {})
        rows = scored.layout.get("hits")
        if rows is None:  # shared by every scoring of the same vectors (a cache scoring the same hubs again)
            rows = scored.layout["hits"] = RowLayout.of(scored)
        text_sims = scored.sims.copy() if acronyms else scored.sims
        for qi, acronym in (acronyms or {}).items():
            word = re.compile(rf"(?<![A-Za-z0-9]){re.escape(acronym)}(?![A-Za-z0-9])")
            hit_rows = [r for text, r in rows.texts if acronym in text and word.search(text)]
            text_sims[hit_rows, qi] = np.maximum(text_sims[hit_rows, qi], ACRONYM_SIM)
        sims = text_sims[scored.text_rows]
        codes, paths = rows.codes, rows.paths
        path_best = np.maximum.reduceat(sims[rows.by_path], rows.starts, axis=0)
        # each path's best row; ties by text, then level, so the choice never depends on row order
        order = np.lexsort((rows.level_codes, rows.text_ranks, -sims.max(axis=1), codes))
        first = order[np.r_[True, codes[order][1:] != codes[order][:-1]]]  # in path-code order
        path_hubs = _gather(scored.hub_ids, first)
        best_hit = list(
            map(
                VectorHit,
                path_hubs,
                paths,
                _gather(scored.levels, first),
                _gather(scored.texts, first),
                map(tuple, sims[first].tolist()),
            )
        )
        hub_codes, hubs = _codes(path_hubs)
        by_hub = np.argsort(hub_codes, kind="stable")
        hub_matrix = np.maximum.reduceat(
            path_best[by_hub], np.searchsorted(hub_codes[by_hub], np.arange(len(hubs))), axis=0
        )
        return cls(
            paths, path_hubs, best_hit, path_best, dict(zip(hubs, hub_matrix)), TextSims(rows.text_row, text_sims)
        )


@dataclass
class RowLayout:
    """What grouping depends on only through the rows, not their similarities: computed once per set
    of scored vectors."""

    texts: list[tuple[str, int]]  # each distinct row of `sims` (row order) with its text
    text_row: dict[str, int]  # each text -> its row of `sims`
    codes: np.ndarray  # (rows,) path code, numbered in order of first appearance
    paths: list[str]  # path hash of each code
    by_path: np.ndarray  # rows grouped by path code, in row order within a path
    starts: np.ndarray  # where each path's rows start in `by_path`
    text_ranks: np.ndarray  # (rows,) rank of the row's text in sorted order (ties)
    level_codes: np.ndarray  # (rows,) rank of the row's level in sorted order (ties)

    @classmethod
    def of(cls, scored: ScoredVectors) -> RowLayout:
        """The layout of these scored vectors."""
        distinct_rows, first_rows = np.unique(scored.text_rows, return_index=True)  # each text's first vector
        texts = _gather(scored.texts, first_rows)
        text_rank = np.zeros(len(scored.sims), dtype=np.int64)
        text_rank[distinct_rows[sorted(range(len(texts)), key=texts.__getitem__)]] = np.arange(len(texts))
        codes, paths = _codes(scored.path_hashes)
        by_path = np.argsort(codes, kind="stable")
        pairs = list(zip(texts, distinct_rows.tolist()))
        return cls(
            pairs,
            dict(pairs),
            codes,
            paths,
            by_path,
            np.searchsorted(codes[by_path], np.arange(len(paths))),
            text_rank[scored.text_rows],
            _codes(scored.levels, ordered=True)[0],
        )


class TextSims(Mapping[str, tuple[float, ...]]):
    """Embedded text -> its similarity to each query vector, converted to Python floats on first use
    (a question scores thousands of texts and looks up a few hundred)."""

    def __init__(self, rows: dict[str, int], sims: np.ndarray) -> None:
        self._rows = rows
        self._sims = sims
        self._done: dict[str, tuple[float, ...]] = {}

    def __getitem__(self, text: str) -> tuple[float, ...]:
        found = self._done.get(text)
        if found is None:
            found = self._done[text] = tuple(self._sims[self._rows[text]].tolist())
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, text: object) -> bool:
        return text in self._rows


def _gather(values: list, rows: np.ndarray) -> list:
    """values[r] for each r in rows, as a list."""
    return [values[r] for r in rows.tolist()] if len(rows) < 2 else list(itemgetter(*rows.tolist())(values))


def _codes(values: list[str], ordered: bool = False) -> tuple[np.ndarray, list[str]]:
    """An integer code per value and the distinct values: numbered in order of first appearance, or
    in sorted order when `ordered`."""
    distinct = list(dict.fromkeys(values))
    if ordered:
        distinct.sort()
    index = {v: i for i, v in enumerate(distinct)}
    return np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=len(values)), distinct


_ACRONYM = re.compile(r"[A-Z][A-Z0-9&]{1,9}")


def acronym_components(components: list[str]) -> dict[int, str]:
    """Query indices (1-based, after the question) of the components that are acronyms."""
    return {i + 1: c for i, c in enumerate(components) if _ACRONYM.fullmatch(c) and not c.isdigit()}
