"""The HubVector store protocol and the records that cross it."""

from __future__ import annotations

import json
from collections.abc import Collection, Hashable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from kgqa.types import Entity, Triple


@dataclass(frozen=True)
class PathRecord:
    """A hub path as stored: hash, verbalisation, triples, and the texts it is embedded under."""

    hash: str
    hub_id: str
    text: str
    triples: tuple[Triple, ...]
    vectors: tuple[tuple[str, str], ...] = ()  # (level, text hash)


@dataclass(frozen=True)
class HubRecord:
    """A hub to (re)write: root, its paths, and the signature of its path-hash set."""

    id: str
    label: str
    depth: int
    signature: str
    paths: tuple[PathRecord, ...] = field(default=())


@dataclass(frozen=True)
class IndexCounts:
    """How big the index is."""

    hubs: int
    paths: int
    vectors: int
    texts: int


@dataclass(frozen=True)
class VectorHit:
    """One HubVector matched by a query: the hub path it belongs to, its level and similarities."""

    hub_id: str
    path_hash: str
    level: str
    text: str
    similarities: tuple[float, ...]  # one per query vector


@dataclass
class ScoredVectors:
    """Every HubVector of some hubs with its similarities, column by column (tens of thousands of
    rows per question: columns avoid one Python object per vector). Rows sharing a text share its
    similarities: `sims[text_rows[i]]` belongs to row i."""

    hub_ids: list[str]
    path_hashes: list[str]
    levels: list[str]
    texts: list[str]
    text_rows: np.ndarray  # (rows,) int: the row of `sims` holding each vector's similarities
    sims: np.ndarray  # (distinct texts, queries) float32
    layout: dict[str, Any] = field(default_factory=dict)  # what consumers derive from the rows alone, kept
    #                                                       for every scoring of the same rows

    def __len__(self) -> int:
        return len(self.hub_ids)

    @classmethod
    def empty(cls, n_queries: int) -> ScoredVectors:
        """No vectors."""
        return cls([], [], [], [], np.zeros(0, np.int64), np.zeros((0, n_queries), np.float32))

    @classmethod
    def from_columns(
        cls,
        hub_ids: list[str],
        path_hashes: list[str],
        levels: list[str],
        texts: list[str],
        text_keys: Sequence[Hashable],
        embedded: Mapping[Any, int],
        matrix: np.ndarray,
        queries: np.ndarray,
    ) -> ScoredVectors:
        """Rows as a store reads them, with each distinct text's embedding at `matrix[embedded[key]]`
        (a text's key: its hash, or anything else that names one text within the read)."""
        rows = np.fromiter((embedded[k] for k in text_keys), dtype=np.int64, count=len(text_keys))
        sims = matrix.astype(np.float32) @ np.asarray(queries, dtype=np.float32).T  # unit vectors: cosine
        return cls(list(hub_ids), list(path_hashes), list(levels), list(texts), rows, sims)

    @classmethod
    def from_hits(cls, hits: list[VectorHit], n_queries: int) -> ScoredVectors:
        """From VectorHits (tests, and stores that score row by row)."""
        if not hits:
            return cls.empty(n_queries)
        return cls(
            [h.hub_id for h in hits],
            [h.path_hash for h in hits],
            [h.level for h in hits],
            [h.text for h in hits],
            np.arange(len(hits)),
            np.asarray([h.similarities for h in hits], dtype=np.float32).reshape(len(hits), n_queries),
        )


def encode_triples(triples: tuple[Triple, ...]) -> str:
    """Triples as compact JSON for storage: [[sid, slabel, predicate, oid, olabel], ...], an edge with
    properties of its own followed by them: [..., olabel, [[name, value], ...]]."""
    return json.dumps(
        [
            [t.subject.id, t.subject.label, t.predicate, t.object.id, t.object.label]
            + ([[list(q) for q in t.qualifiers]] if t.qualifiers else [])
            for t in triples
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )


def decode_triples(text: str) -> tuple[Triple, ...]:
    """Inverse of `encode_triples`."""
    return tuple(
        Triple(Entity(s, sl), p, Entity(o, ol), tuple((str(k), str(v)) for k, v in rest[0]) if rest else ())
        for s, sl, p, o, ol, *rest in json.loads(text)
    )


class HubVectorStore(Protocol):
    """Where hubs, hub paths and HubVectors live (Kùzu by default; Postgres+pgvector too)."""

    name: str
    dim: int | None

    def ready(self) -> bool:
        """Whether the index tables exist."""
        ...

    def meta_get(self, key: str) -> Any:
        """A metadata value of this store's index (decoded JSON) or None."""
        ...

    def meta_set(self, key: str, value: Any) -> None:
        """Store a metadata value of this store's index as JSON."""
        ...

    def ensure_schema(self, dim: int) -> None:
        """Create the index tables for vectors of dimension `dim` if they do not exist."""
        ...

    def drop(self) -> None:
        """Remove the whole index (tables included)."""
        ...

    def has_ann_index(self) -> bool:
        """Whether the approximate-nearest-neighbour index exists."""
        ...

    def ensure_ann_index(self) -> bool:
        """Create the ANN index if missing; True if it was created now."""
        ...

    def bulk_writes(self) -> AbstractContextManager[None]:
        """A context for a build's many write transactions (the store may write them more cheaply)."""
        ...

    def signatures(self) -> dict[str, str]:
        """Stored hub id -> signature of the path-hash set it was built from."""
        ...

    def existing_texts(self, hashes: list[str]) -> set[str]:
        """The text hashes that already have a stored embedding."""
        ...

    def replace_hubs(
        self, hubs: list[HubRecord], texts: dict[str, tuple[str, np.ndarray]], *, new: Collection[str] = ()
    ) -> int:
        """In one transaction: delete these hubs' old paths and vectors (but for the ids in `new`, which
        the caller knows are not stored), add the new texts, hubs, paths and vectors. Returns the number
        of HubVectors written."""
        ...

    def remove_hubs(self, hub_ids: list[str]) -> None:
        """Delete hubs with their paths and vectors."""
        ...

    def path_ends(self, hub_ids: list[str]) -> dict[str, set[str]]:
        """Hub id -> the entities its stored paths end at (an update's next hub level)."""
        ...

    def collect_garbage(self) -> int:
        """Delete embedded texts no vector uses; return how many."""
        ...

    def counts(self) -> IndexCounts:
        """Hubs, paths, vectors and unique texts stored."""
        ...

    def hub_labels(self, hub_ids: list[str]) -> dict[str, str]:
        """Labels of indexed hubs (missing ids are not indexed)."""
        ...

    def score_hubs(self, hub_ids: list[str], queries: np.ndarray) -> ScoredVectors:
        """Every vector of the given hubs with its similarity to each query vector (exact)."""
        ...

    def nearest_texts(self, query: np.ndarray, k: int) -> list[tuple[str, str, float]]:
        """ANN search: the k nearest embedded texts as (text hash, text, similarity)."""
        ...

    def nearest_each(self, queries: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """ANN search for each query vector (a store may run them at once): its k nearest embedded
        texts as (text hash, similarity)."""
        ...

    def text_hubs(self, text_hashes: list[str], limit: int) -> dict[str, tuple[int, list[str]]]:
        """For each of these texts that some hub embeds: how many hubs do (its fan-out), and the
        first `limit` of them by id."""
        ...

    def prime(self, like: HubVectorStore | None = None) -> None:
        """Before a service's first question: read now what questions read and this store keeps while
        nothing can change the index (or nothing); `like`: another store on the same index state."""
        ...

    def held_note(self) -> str | None:
        """What `prime` keeps in memory, in words for a service's start (None: nothing)."""
        ...

    def paths(self, hashes: list[str], hubs: list[str] | None = None) -> dict[str, PathRecord]:
        """Stored paths by hash. `hubs`: the hubs these are every path of, which a store may read the
        paths through instead of one by one (the result is the same)."""
        ...

    def hub_records(self, hub_ids: list[str]) -> list[HubRecord]:
        """The given hubs with their paths and HubVectors (to copy the index to another store)."""
        ...

    def text_hashes(self) -> list[str]:
        """Every stored text hash, oldest first (storage order decides ties between a path's vectors)."""
        ...

    def embeddings(self, text_hashes: list[str]) -> dict[str, tuple[str, np.ndarray]]:
        """Stored texts with their embeddings, by text hash (to copy without re-embedding)."""
        ...

    def close(self) -> None:
        """Release what the store holds of its own (the graph store is closed by its owner)."""
        ...
