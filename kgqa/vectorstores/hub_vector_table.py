"""Every HubVector of a read-only Kùzu index in memory, hub by hub, for the direct strategy's scoring.

A direct question scores every HubVector of about 90 candidate hubs (~13,500 at 10^6 triples). Read
from Kùzu that costs 250-500 ms, about 10 µs for each row whatever its columns (docs/scale.md, "The
direct tail against Kùzu's reads"). While the database is open read-only nothing can change, so a
service reads the index once at start: each HubVector as (text, path, level) node offsets grouped by hub,
each text's float16 vector and text by its node offset, each path's hash by its node offset. A hub's rows
are then an array slice. It costs about the index's float16 vectors in memory (1.2 GiB at 10^6
triples), which the store takes from the page cache's share of the memory ceiling (kuzu_store.prime).
A service over a pgvector index holds the same table, read from Postgres (pg_resident.py).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kgqa.memory import release_unused_memory
from kgqa.vectorstores.base import IndexCounts, ScoredVectors
from kgqa.vectorstores.text_hub_index import by_offset
from kgqa.vectorstores.vector_cache import LAYOUTS_KEPT

#: Bytes the table keeps for each text beyond its vector (its UTF-8 text, about 90 bytes at 10^6 triples,
#: and two offsets), each path (its hash and offsets) and each HubVector (text and path offsets, level).
TEXT_BYTES = 128
PATH_BYTES = 80
VECTOR_BYTES = 9
#: Texts read per query at start (each window a scan of the offsets; its rows' BLOBs ~150 MiB at 384-d).
WINDOW = 200_000

#: Reads a named query's result as an Arrow table: (name, params) -> pa.Table.
ReadArrow = Callable[[str, dict | None], pa.Table]


def table_bytes(counts: IndexCounts, dim: int) -> int:
    """What a table of an index with these table sizes keeps in memory (before reading it)."""
    return counts.texts * (2 * dim + TEXT_BYTES) + counts.paths * PATH_BYTES + counts.vectors * VECTOR_BYTES


@dataclass(frozen=True)
class HubRows:
    """Every HubVector as node offsets, grouped by hub: hub number n's rows are `starts[n]:starts[n + 1]`
    (numbers follow the hub ids' sorted order; a hub's rows keep the order the index was walked in)."""

    hub_number: dict[str, int]
    starts: np.ndarray  # (hubs + 1,) int64
    text_of: np.ndarray  # (HubVectors,) int32 text node offset
    path_of: np.ndarray  # (HubVectors,) int32 path node offset
    level_of: np.ndarray  # (HubVectors,) int8: a row of `levels`
    levels: np.ndarray  # the distinct levels (object array of str)
    path_hashes: pa.Array  # each path's hash, by path node offset

    @classmethod
    def of(cls, hub_offsets: dict[str, int], paths: pa.Table, embeds: pa.Table) -> HubRows:
        """From every hub's node offset, `paths` (path offset, hub id, hash: `retrieval/path_hubs_all`)
        and `embeds` (text, path and hub offset, level: `retrieval/hub_vectors_all`); each hub's rows in
        the order walked."""
        hub_ids = sorted(hub_offsets)
        number_of_offset = np.full(max(hub_offsets.values(), default=-1) + 1, -1, np.int64)
        number_of_offset[[hub_offsets[h] for h in hub_ids]] = np.arange(len(hub_ids))
        level = embeds.column(3).combine_chunks().dictionary_encode()
        return cls.grouped(
            hub_ids,
            number_of_offset[embeds.column(2).to_numpy()],
            (embeds.column(0).to_numpy(), embeds.column(1).to_numpy(), level.indices.to_numpy(zero_copy_only=False)),
            np.asarray(level.dictionary.to_pylist(), dtype=object),
            by_offset(paths.column(0).to_numpy(), paths.column(2).combine_chunks()),
        )

    @classmethod
    def grouped(
        cls,
        hub_ids: list[str],
        hub_of: np.ndarray,
        columns: tuple[np.ndarray, np.ndarray, np.ndarray],
        levels: np.ndarray,
        path_hashes: pa.Array,
        within: tuple[np.ndarray, ...] = (),
    ) -> HubRows:
        """From each HubVector's hub number (numbers follow the sorted `hub_ids`) and its text, path and
        level `columns`: grouped by hub, a hub's rows ordered by the `within` keys (last key first, as
        `np.lexsort` takes them), else in the order given."""
        order = np.lexsort((*within, hub_of))  # stable: equal keys keep the order given
        starts = np.zeros(len(hub_ids) + 1, np.int64)
        np.cumsum(np.bincount(hub_of, minlength=len(hub_ids)), out=starts[1:])
        del hub_of
        text_of, path_of, level_of = columns
        return cls(
            {h: i for i, h in enumerate(hub_ids)},
            starts,
            text_of[order].astype(np.int32),
            path_of[order].astype(np.int32),
            level_of[order].astype(np.int8),
            levels,
            path_hashes,
        )

    @property
    def nbytes(self) -> int:
        """The arrays' size (the hub ids not counted)."""
        arrays = (self.starts, self.text_of, self.path_of, self.level_of)
        return sum(a.nbytes for a in arrays) + self.path_hashes.nbytes


@dataclass
class _Layout:
    text_offsets: np.ndarray  # the distinct texts of the rows, by node offset
    scored: ScoredVectors  # the rows without similarities (its `layout` memo shared by every scoring)


class HubVectorTable:
    """HubVectors grouped by hub (rows `starts[n]:starts[n + 1]` of hub number n), with texts, vectors
    and path hashes by node offset."""

    def __init__(
        self, rows: HubRows, texts: tuple[np.ndarray, pa.Array, np.ndarray], *, path_major: bool = False
    ) -> None:
        self._rows = rows
        #: Rows of several hubs come in path order (path numbers following the hashes: pgvector's order)
        #: rather than hub by hub in the order asked (Kùzu's).
        self._path_major = path_major
        self._text_row, self._texts, self.vectors = texts  # text offset -> row of `_texts`; texts; (offsets, dim)
        self._layouts: dict[tuple[str, ...], _Layout] = {}
        self._lock = threading.Lock()  # the workspaces of a service share one table

    @classmethod
    def read(cls, read: ReadArrow, rows: HubRows, dim: int) -> HubVectorTable | None:
        """The table of `rows` with every text and its vector, read WINDOW node offsets at a time
        (`retrieval/texts_in_range`). None when a text's copy is float32 (an index written before
        KGQA_HALF_VECTORS): float16 would change its scores, so the store reads Kùzu."""
        last = read("retrieval/text_offset_max", None).column(0)[0].as_py()
        vectors = np.zeros((0 if last is None else last + 1, dim), np.float16)
        text_offsets: list[np.ndarray] = []
        text_parts: list[pa.Array] = []  # each window's texts
        for lo in range(0, len(vectors), WINDOW):
            window = read("retrieval/texts_in_range", {"lo": lo, "hi": lo + WINDOW})
            offsets = window.column(0).to_numpy().copy()  # a view would keep the window's whole batch
            block = _half_vectors(window.column(2).combine_chunks(), dim)
            if block is None:
                return None
            vectors[offsets] = block
            text_offsets.append(offsets)
            text_parts.append(pa.concat_arrays(window.column(1).chunks))  # a copy: the window's buffers go
            del window, block
            release_unused_memory()  # the window's Arrow buffers, before the next one is read
        all_offsets = np.concatenate(text_offsets) if text_offsets else np.zeros(0, np.int64)
        text_row = np.full(len(vectors), -1, np.int32)
        text_row[all_offsets] = np.arange(len(all_offsets), dtype=np.int32)
        texts = pa.concat_arrays(text_parts) if text_parts else pa.array([], pa.string())  # `take` on one array
        del text_parts
        return cls(rows, (text_row, texts, vectors))

    @property
    def nbytes(self) -> int:
        """What the table keeps in memory (its layouts not counted)."""
        return self._rows.nbytes + self._text_row.nbytes + self._texts.nbytes + self.vectors.nbytes

    def score(self, hub_ids: list[str], queries: np.ndarray) -> ScoredVectors:
        """Every vector of `hub_ids` (hub by hub, in the order given; an unknown id has none) with its
        similarities to `queries` (unit vectors: cosine)."""
        hubs = tuple(dict.fromkeys(hub_ids))
        with self._lock:
            layout = self._layouts.get(hubs)
            if layout is None:
                layout = self._layout(hubs)
                if len(self._layouts) >= LAYOUTS_KEPT:
                    self._layouts.pop(next(iter(self._layouts)))
                self._layouts[hubs] = layout
        if not len(layout.text_offsets):
            return ScoredVectors.empty(len(queries))
        sims = self.vectors[layout.text_offsets].astype(np.float32) @ np.asarray(queries, dtype=np.float32).T
        return dataclasses.replace(layout.scored, sims=sims)

    def _layout(self, hubs: tuple[str, ...]) -> _Layout:
        """The rows of these hubs and their distinct texts (kept for the next scoring of the same hubs)."""
        r = self._rows
        spans, hub_ids = [], []
        for h in hubs:
            if (n := r.hub_number.get(h)) is not None:
                a, b = int(r.starts[n]), int(r.starts[n + 1])
                spans.append(np.arange(a, b))
                hub_ids += [h] * (b - a)
        rows = np.concatenate(spans) if spans else np.zeros(0, np.int64)
        if self._path_major:  # a path is one hub's, its rows already in their order: a stable sort
            order = np.argsort(r.path_of[rows], kind="stable")
            rows, hub_ids = rows[order], [hub_ids[i] for i in order.tolist()]
        distinct, inverse = np.unique(r.text_of[rows], return_inverse=True)
        texts = np.asarray(self._texts.take(pa.array(self._text_row[distinct])).to_pylist(), dtype=object)
        scored = ScoredVectors(
            hub_ids,
            r.path_hashes.take(pa.array(r.path_of[rows])).to_pylist(),
            r.levels[r.level_of[rows]].tolist(),
            texts[inverse].tolist(),
            inverse.astype(np.int64),
            np.zeros((0, 0), np.float32),
        )
        return _Layout(distinct.astype(np.int64), scored)


def _half_vectors(raws: pa.Array, dim: int) -> np.ndarray | None:
    """BLOB copies as a (rows, dim) float16 matrix read from the Arrow buffer without a Python object per
    row; None unless every copy is `dim` float16 values."""
    if not len(raws):
        return np.zeros((0, dim), np.float16)
    lengths = pc.min_max(pc.binary_length(raws))
    if raws.null_count or lengths["min"].as_py() != 2 * dim or lengths["max"].as_py() != 2 * dim:
        return None
    width = np.int64 if pa.types.is_large_binary(raws.type) else np.int32
    first = int(np.frombuffer(raws.buffers()[1], width, count=1, offset=np.dtype(width).itemsize * raws.offset)[0])
    data = np.frombuffer(raws.buffers()[2], "<f2", count=len(raws) * dim, offset=first)
    return data.reshape(len(raws), dim)
