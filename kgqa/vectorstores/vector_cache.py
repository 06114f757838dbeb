"""Hub vectors kept in memory across questions while the database cannot change (opened read-only:
Kùzu lets no writer in while it is open), so a warm question reads only hubs it has not seen and
scores them without one Python step per vector."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass

import numpy as np

from kgqa.vectorstores.base import ScoredVectors
from kgqa.vectorstores.raw import raw_matrix

#: Columns of `retrieval/hub_vectors`: hub, path_hash, level, text, text key (its node offset), raw bytes.
Columns = tuple[list, list, list, list, list, list]


@dataclass
class _HubRows:
    hub_ids: list[str]
    paths: list[str]
    levels: list[str]
    texts: list[str]
    text_ids: np.ndarray  # rows of the cache's text matrix


@dataclass
class _Layout:
    text_ids: np.ndarray  # rows of the text matrix, one per distinct text, in order of first appearance
    scored: ScoredVectors  # the rows, without similarities (its `layout` memo is shared by every scoring)


#: Hub sets whose rows are kept ready (oldest dropped first); one per recent topic.
LAYOUTS_KEPT = 32


class HubVectorCache:
    """Per-hub rows and one matrix of distinct text vectors; dropped whole past `limit` rows."""

    def __init__(self, read: Callable[[list[str]], Columns], limit: int = 2_000_000) -> None:
        self._read = read
        self._limit = limit
        self._lock = threading.Lock()  # a service may ask from several threads
        self._clear()

    def _clear(self) -> None:
        self._hubs: dict[str, _HubRows] = {}
        self._layouts: dict[tuple[str, ...], _Layout] = {}
        self._text_id: dict[Hashable, int] = {}  # text key -> row of the matrix
        self._matrix: np.ndarray | None = None  # rows [0, len(_text_id)) hold the texts' vectors; the rest is room
        self._rows = 0

    def score(self, hub_ids: list[str], queries: np.ndarray) -> ScoredVectors:
        """Every vector of `hub_ids` (hub by hub, in the order given) with its similarities."""
        hubs = list(dict.fromkeys(hub_ids))
        with self._lock:
            missing = [h for h in hubs if h not in self._hubs]
            if missing:
                self._add(missing, may_clear=True)
                missing = [h for h in hubs if h not in self._hubs]  # the cache was emptied to make room
                if missing:
                    self._add(missing, may_clear=False)
            rows = self._layouts.get(tuple(hubs))
            if rows is None:
                rows = self._layout(hubs)
            vectors = self._matrix[: len(self._text_id)] if len(rows.text_ids) and self._matrix is not None else None
        if vectors is None:
            return ScoredVectors.empty(len(queries))
        sims = vectors[rows.text_ids] @ np.asarray(queries, dtype=np.float32).T  # unit vectors: cosine
        return dataclasses.replace(rows.scored, sims=sims)

    def _layout(self, hubs: list[str]) -> _Layout:
        """The rows of these hubs (in this order) and their distinct texts, kept for the next question
        that scores the same hubs (a traversal from the same topic)."""
        parts = [self._hubs[h] for h in hubs]
        ids = np.concatenate([p.text_ids for p in parts]) if parts else np.zeros(0, np.int64)
        distinct, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")  # distinct texts in order of first appearance
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        scored = ScoredVectors([], [], [], [], rank[inverse].astype(np.int64), np.zeros((0, 0), np.float32))
        for p in parts:
            scored.hub_ids.extend(p.hub_ids)
            scored.path_hashes.extend(p.paths)
            scored.levels.extend(p.levels)
            scored.texts.extend(p.texts)
        if len(self._layouts) >= LAYOUTS_KEPT:
            self._layouts.pop(next(iter(self._layouts)))
        layout = self._layouts[tuple(hubs)] = _Layout(distinct[order], scored)
        return layout

    def _add(self, hub_ids: list[str], *, may_clear: bool) -> None:
        hubs, paths, levels, texts, text_keys, raws = self._read(hub_ids)
        if may_clear and self._rows + len(hubs) > self._limit:
            self._clear()
        new_raws = []
        ids = []
        for th, raw in zip(text_keys, raws):
            i = self._text_id.get(th)
            if i is None:
                i = self._text_id[th] = len(self._text_id)
                new_raws.append(raw)
            ids.append(i)
        if new_raws:
            self._append(raw_matrix(new_raws), len(self._text_id) - len(new_raws))
        by_hub: dict[str, list[int]] = {h: [] for h in hub_ids}  # hubs without vectors stay known
        for row, hub in enumerate(hubs):
            by_hub[hub].append(row)
        for hub, rows in by_hub.items():
            self._hubs[hub] = _HubRows(
                [hub] * len(rows),
                [paths[r] for r in rows],
                [levels[r] for r in rows],
                [texts[r] for r in rows],
                np.asarray([ids[r] for r in rows], dtype=np.int64),
            )
        self._rows += len(hubs)

    def _append(self, block: np.ndarray, start: int) -> None:
        """`block`'s rows as the text matrix's rows from `start`, in room grown by a quarter at a time, so
        that a question's new texts cost their own copy, not one of every text seen so far."""
        end = start + len(block)
        if self._matrix is None or end > len(self._matrix):
            room = max(end, len(self._matrix) * 5 // 4 if self._matrix is not None else 0, 1024)
            grown = np.empty((room, block.shape[1]), np.float32)
            if self._matrix is not None:
                grown[:start] = self._matrix[:start]
            self._matrix = grown  # a scoring still reading the old matrix keeps its rows unchanged
        self._matrix[start:end] = block
