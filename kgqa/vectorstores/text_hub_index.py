"""Which hubs embed a text, held in memory by a read-only Kùzu index store.

The direct strategy expands every ANN hit text to its hubs (kgqa/retrieval/fanout.py). In Kùzu each
text costs a primary-key lookup, its `Embeds` edges and a masked scan of the paths' `hub_id` column:
3-5 ms a text at 10^6 triples, about 120 texts a question. While the database is open read-only its
node offsets cannot change, so the whole text -> path -> hub relation fits in three integer arrays
(4 bytes per HubVector, read in about 3 s at 10^6) and a text's hubs are a slice of them. Texts are
found by their node offset, which the ANN search returns with each hit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pyarrow as pa

#: Past this many HubVectors the arrays are not built: they keep about 4 bytes per HubVector, and reading
#: them takes about 28 bytes per HubVector for a moment (the Arrow columns and the sort): 200 MiB for the
#: 7.4 M HubVectors of 10^6 triples, 320 MiB here, beside the page cache the memory ceiling allows.
MAX_VECTORS = 12_000_000

#: A text embedded by more paths than this has its hubs kept once read (at most SHARED_KEPT texts).
SHARED_PATHS = 5_000
SHARED_KEPT = 10_000


@dataclass(frozen=True)
class TextHubIndex:
    """text node offset -> its paths (`starts`, `paths`), path node offset -> hub number, hub number
    -> hub id. Hub numbers follow the ids' sorted order, so the smallest numbers are the first ids."""

    starts: np.ndarray  # (texts + 1,) int64: text offset t's paths are paths[starts[t]:starts[t + 1]]
    paths: np.ndarray  # (HubVectors,) int32 path offsets, grouped by text offset
    path_hub: np.ndarray  # (paths,) int32 hub number of each path offset
    hub_ids: tuple[str, ...]
    hashes: pa.Array | None = None  # each text's hash at its node offset (`with_hashes`)
    # (text offset, limit) -> `hubs` of a text shared by more than SHARED_PATHS paths (the same few
    # predicate texts come back question after question; each costs a sort of its paths' hubs)
    shared: dict[tuple[int, int], tuple[int, list[str]]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(
        cls, path_offsets: Sequence[int], path_hub_ids: Sequence[str], text_of: np.ndarray, path_of: np.ndarray
    ) -> TextHubIndex:
        """From the paths (node offset, hub id) and the HubVectors (text offset, path offset)."""
        hub_ids = tuple(sorted(set(path_hub_ids)))
        number = {h: i for i, h in enumerate(hub_ids)}
        path_hub = np.full(int(max(path_offsets, default=-1)) + 1, -1, dtype=np.int32)
        path_hub[np.asarray(path_offsets, dtype=np.int64)] = [number[h] for h in path_hub_ids]
        text_of = np.asarray(text_of, dtype=np.int64)
        order = np.argsort(text_of, kind="stable")
        counts = np.bincount(text_of, minlength=int(text_of.max(initial=-1)) + 1)
        starts = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(counts, out=starts[1:])
        paths = np.asarray(path_of, dtype=np.int32)[order]
        return cls(starts, paths, path_hub, hub_ids)

    def hubs(self, text_offset: int, limit: int) -> tuple[int, list[str]] | None:
        """How many hubs embed the text, and the first `limit` of them by id; None when no path does."""
        if not 0 <= text_offset < len(self.starts) - 1:
            return None
        lo, hi = self.starts[text_offset], self.starts[text_offset + 1]
        if lo == hi:
            return None
        if hi - lo > SHARED_PATHS and (known := self.shared.get((text_offset, limit))) is not None:
            return known
        numbers = np.unique(self.path_hub[self.paths[lo:hi]])
        found = len(numbers), [self.hub_ids[i] for i in numbers[:limit].tolist()]
        if hi - lo > SHARED_PATHS and len(self.shared) < SHARED_KEPT:
            self.shared[(text_offset, limit)] = found
        return found

    def with_hashes(self, text_offsets: np.ndarray, text_hashes: pa.Array) -> TextHubIndex:
        """This index with every text's hash by node offset (about 36 bytes a text): an ANN search
        then returns node offsets alone, which Kùzu reads much faster than the hits' properties."""
        return replace(self, hashes=by_offset(text_offsets, text_hashes))

    def hashes_at(self, text_offsets: Sequence[int]) -> list[str | None]:
        """The hashes of the texts at these node offsets (None past the texts known)."""
        if self.hashes is None:
            raise ValueError("this text index was built without the texts' hashes")
        wanted = np.asarray(text_offsets, dtype=np.int64)
        unknown = (wanted < 0) | (wanted >= len(self.hashes))
        return self.hashes.take(pa.array(np.where(unknown, 0, wanted), mask=unknown)).to_pylist()

    @property
    def nbytes(self) -> int:
        """The arrays' size (the hub ids not counted)."""
        own = self.starts.nbytes + self.paths.nbytes + self.path_hub.nbytes
        return own + (self.hashes.nbytes if self.hashes is not None else 0)


def by_offset(offsets: np.ndarray, values: pa.Array) -> pa.Array:
    """`values` placed at their node offsets (null where no row has that offset)."""
    position = np.full(int(offsets.max(initial=-1)) + 1, -1, np.int64)
    position[offsets] = np.arange(len(offsets))
    return values.take(pa.array(position, mask=position < 0))
