"""The HubVector store protocol and the records that cross it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Protocol

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


def encode_triples(triples: tuple[Triple, ...]) -> str:
    """Triples as compact JSON for storage: [[sid, slabel, predicate, oid, olabel], ...]."""
    return json.dumps([[t.subject.id, t.subject.label, t.predicate, t.object.id, t.object.label]
                       for t in triples], ensure_ascii=False, separators=(",", ":"))


def decode_triples(text: str) -> tuple[Triple, ...]:
    """Inverse of `encode_triples`."""
    return tuple(Triple(Entity(s, sl), p, Entity(o, ol)) for s, sl, p, o, ol in json.loads(text))


class HubVectorStore(Protocol):
    """Where hubs, hub paths and HubVectors live (Kùzu by default; Postgres+pgvector too)."""

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

    def signatures(self) -> dict[str, str]:
        """Stored hub id -> signature of the path-hash set it was built from."""
        ...

    def existing_texts(self, hashes: list[str]) -> set[str]:
        """The text hashes that already have a stored embedding."""
        ...

    def replace_hubs(self, hubs: list[HubRecord], texts: dict[str, tuple[str, np.ndarray]]) -> int:
        """In one transaction: delete these hubs' old paths and vectors, add the new texts, hubs,
        paths and vectors. Returns the number of HubVectors written."""
        ...

    def remove_hubs(self, hub_ids: list[str]) -> None:
        """Delete hubs with their paths and vectors."""
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

    def score_hubs(self, hub_ids: list[str], queries: np.ndarray) -> list[VectorHit]:
        """Every vector of the given hubs with its similarity to each query vector (exact)."""
        ...

    def nearest_texts(self, query: np.ndarray, k: int) -> list[tuple[str, str, float]]:
        """ANN search: the k nearest embedded texts as (text hash, text, similarity)."""
        ...

    def vectors_for_texts(self, text_hashes: list[str]) -> list[tuple[str, str, str, str, str]]:
        """HubVectors using these texts: (text hash, hub id, path hash, level, text)."""
        ...

    def paths(self, hashes: list[str]) -> dict[str, PathRecord]:
        """Stored paths by hash."""
        ...
