"""Every stored hub path in memory, held by a primed read-only Kùzu index store where the memory
ceiling has room beside its hub vector table.

A direct question reads about 150 paths of its candidate hubs (their best path per question component,
then every path of the hubs kept). In Kùzu each is a primary-key lookup of about 0.5 ms at 10^6 triples
(55 ms a question); in memory the hashes are a sorted array searched at once, and a path's text and
triples are rows of two Arrow string arrays (about 450 bytes a path: 380 MiB for the 843,000 paths of
10^6 triples). While the database is open read-only no process can change them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from kgqa.memory import release_unused_memory

#: Paths read per query while the table is filled (a window's Arrow buffers are freed before the next).
WINDOW = 200_000

ReadArrow = Callable[[str, dict | None], pa.Table]


@dataclass(frozen=True)
class PathRow:
    """One stored path as the table holds it (triples still encoded, decoded by the caller)."""

    hash: str
    hub_id: str
    text: str
    triples: str


@dataclass(frozen=True)
class PathTable:
    """Stored paths by hash: `sorted_hashes` (fixed-width bytes, sorted) and each one's row of the
    columns `hub_ids`, `texts` and `triples`."""

    sorted_hashes: np.ndarray
    rows: np.ndarray
    hub_ids: pa.Array
    texts: pa.Array
    triples: pa.Array

    @classmethod
    def read(cls, read: ReadArrow) -> PathTable:
        """Every stored path, WINDOW node offsets at a time (`retrieval/paths_in_range`)."""
        last = read("retrieval/path_offset_max", None).column(0)[0].as_py()
        parts: list[list[pa.Array]] = [[], [], [], []]
        for lo in range(0, 0 if last is None else last + 1, WINDOW):
            window = read("retrieval/paths_in_range", {"lo": lo, "hi": lo + WINDOW})
            for column, part in zip(window.columns, parts):
                part.append(pa.concat_arrays(column.chunks))  # a copy: the window's buffers go
            del window
            release_unused_memory()
        hashes, hub_ids, texts, triples = (pa.concat_arrays(p) if p else pa.array([], pa.string()) for p in parts)
        keys = byte_keys(hashes)
        order = np.argsort(keys, kind="stable")
        return cls(keys[order], order.astype(np.int64), hub_ids, texts, triples)

    @property
    def nbytes(self) -> int:
        """What the table keeps in memory."""
        arrays = (self.hub_ids, self.texts, self.triples)
        return self.sorted_hashes.nbytes + self.rows.nbytes + sum(a.nbytes for a in arrays)

    def __len__(self) -> int:
        return len(self.rows)

    def find(self, hashes: Sequence[str]) -> list[PathRow]:
        """The stored paths among `hashes` (an unknown hash is left out), in the order asked."""
        if not len(self.rows) or not hashes:
            return []
        at = find_sorted(self.sorted_hashes, self.rows, hashes)
        hit = at >= 0
        rows = pa.array(at[hit])
        found = [h for h, ok in zip(hashes, hit.tolist()) if ok]
        return list(
            map(
                PathRow,
                found,
                self.hub_ids.take(rows).to_pylist(),
                self.texts.take(rows).to_pylist(),
                self.triples.take(rows).to_pylist(),
            )
        )


def byte_keys(hashes: pa.Array) -> np.ndarray:
    """Strings as a NumPy array of fixed-width UTF-8 bytes (sortable and searchable at once)."""
    return np.asarray(hashes.cast(pa.binary()).to_numpy(zero_copy_only=False), dtype=np.bytes_)


def find_sorted(sorted_keys: np.ndarray, numbers: np.ndarray, hashes: Sequence[str] | np.ndarray) -> np.ndarray:
    """The number of each hash among `sorted_keys` (`numbers[i]` belongs to `sorted_keys[i]`), -1 where
    it is none of them (an empty hash, or one longer than every key, is none)."""
    if not len(hashes) or not len(sorted_keys):
        return np.full(len(hashes), -1, np.int64)
    keys = hashes if isinstance(hashes, np.ndarray) else np.asarray([h.encode() for h in hashes], dtype=np.bytes_)
    width = sorted_keys.dtype.itemsize
    if keys.dtype.itemsize > width:  # longer than every key: none of them
        keys = np.where(np.char.str_len(keys) > width, b"", keys)
    keys = keys.astype(sorted_keys.dtype)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return np.where((sorted_keys[at] == keys) & (np.char.str_len(keys) > 0), numbers[at], -1)


def estimated_bytes(paths: int, text_bytes: int) -> int:
    """What a table of `paths` paths whose hash, hub id, text and triples hold `text_bytes` in all keeps
    (the strings, their Arrow offsets and the sorted hashes' index)."""
    return text_bytes + paths * (4 * 3 + 8 + 40)
