"""Query-time access to the label index (kgqa/indexing/label_index.py) and to graph neighbourhoods,
shared by the DiFaR, SimGRAG and Chain-of-Explorations retrievers. Every read is a named Cypher query."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from kgqa.embeddings.base import Embedder
from kgqa.graph.reader import entities_by_ids
from kgqa.indexing.label_index import PARTS, check_ready
from kgqa.types import Entity, Triple, text_hash

#: HNSW search breadth: at least this, and at least twice the number of results asked for.
MIN_EFS = 200


@dataclass(frozen=True)
class TextHit:
    """A text of the label index found by ANN search, with its cosine similarity to the query."""

    hash: str
    text: str
    similarity: float

    @property
    def distance(self) -> float:
        """The L2 distance between the two unit vectors (SimGRAG's GSD uses L2)."""
        return float(np.sqrt(max(0.0, 2.0 - 2.0 * self.similarity)))


@dataclass(frozen=True)
class Edge:
    """A triple seen from one of its ends (`anchor`): the other end and the direction."""

    anchor: str
    predicate: str
    other: Entity
    outgoing: bool  # True: anchor is the subject

    def triple(self, anchor: Entity) -> Triple:
        """The stored triple, in its stored direction."""
        if self.outgoing:
            return Triple(anchor, self.predicate, self.other)
        return Triple(self.other, self.predicate, anchor)


class LabelSearch:
    """ANN over the label index, entity and triple look-ups, and bulk neighbourhoods, for one retriever."""

    def __init__(self, store: Any, embedder: Embedder, retriever: str, parts: tuple[str, ...]) -> None:
        self.store = store
        self.embedder = embedder
        meta = check_ready(store, embedder.name, parts, retriever)
        self.dim = int(meta["dim"])
        self._sizes = {PARTS[name].kind: int(part.get("texts", 0)) for name, part in meta["parts"].items()}
        self.entities: dict[str, Entity] = {}
        self._predicates: dict[str, np.ndarray] | None = None
        store.load_extension("vector")

    # -- ANN -------------------------------------------------------------------------------------
    def ann(self, kind: str, vector: np.ndarray, k: int) -> list[TextHit]:
        """The k nearest texts of one table (`triple`, `label` or `predicate`), nearest first."""
        if not self._sizes.get(kind):  # an empty part has no HNSW index (an empty graph)
            return []
        rows = self.store.run(
            f"seeds/ann_{kind}_texts", {"query": vector.astype(np.float32).tolist(), "k": k, "efs": max(MIN_EFS, 2 * k)}
        )
        hits = [TextHit(r[0], r[1], 1.0 - float(r[2])) for r in rows]
        return sorted(hits, key=lambda h: (-h.similarity, h.text))

    # -- look-ups ---------------------------------------------------------------------------------
    def facts(self, hashes: list[str]) -> dict[str, list[Triple]]:
        """The triples stated by each triple text (DiFaR), with full entities."""
        if not hashes:
            return {}
        rows = self.store.run("seeds/facts_for_texts", {"hashes": hashes})
        objects = entities_by_ids(self.store, [r[5] for r in rows])
        out: dict[str, list[Triple]] = {}
        for h, sid, slabel, slit, pred, oid in rows:
            subject = Entity(sid, slabel or "", (), bool(slit))
            obj = objects.get(oid) or Entity(oid)
            out.setdefault(h, []).append(Triple(subject, pred, obj))
        for ts in out.values():
            ts.sort(key=lambda t: t.canonical)
        return out

    def entities_for(self, hashes: list[str]) -> dict[str, list[Entity]]:
        """The entities carrying each label text."""
        if not hashes:
            return {}
        out: dict[str, list[Entity]] = {}
        for h, eid, label, types, lit in self.store.run("seeds/entities_for_labels", {"hashes": hashes}):
            e = Entity(eid, label or "", tuple(types or ()), bool(lit))
            self.entities[eid] = e
            out.setdefault(h, []).append(e)
        for es in out.values():
            es.sort(key=lambda e: e.id)
        return out

    def predicate_vectors(self) -> dict[str, np.ndarray]:
        """Every predicate label with its stored embedding (loaded once)."""
        if self._predicates is None:
            rows = self.store.run("seeds/predicate_embeddings")
            self._predicates = {t: np.frombuffer(raw, dtype="<f4") for t, raw in rows}
        return self._predicates

    def label_vectors(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """Embeddings of entity label texts: stored ones from the label index, others embedded now."""
        wanted = {text_hash(t): t for t in dict.fromkeys(texts)}
        out: dict[str, np.ndarray] = {}
        keys = list(wanted)
        for i in range(0, len(keys), 5000):
            for h, raw in self.store.run("labelindex/label_text_raw", {"hashes": keys[i : i + 5000]}):
                out[wanted[h]] = np.frombuffer(raw, dtype="<f4")
        missing = [t for t in wanted.values() if t not in out]
        if missing:
            out.update(zip(missing, self.embedder.embed(missing)))
        return out

    def entity_types(self) -> list[str]:
        """The distinct entity types of the graph."""
        return sorted(r[0] for r in self.store.run("seeds/entity_types") if r[0])

    def resolve(self, ids: Iterable[str]) -> dict[str, Entity]:
        """Entities by id (cached)."""
        missing = [i for i in dict.fromkeys(ids) if i not in self.entities]
        if missing:
            self.entities.update(entities_by_ids(self.store, missing))
        return {i: self.entities[i] for i in ids if i in self.entities}

    # -- neighbourhoods --------------------------------------------------------------------------
    def edges(self, ids: list[str], predicates: list[str] | None = None) -> list[Edge]:
        """Every triple touching the given entities, both directions, in one query per direction;
        with `predicates`, only triples with one of those predicates."""
        if not ids:
            return []
        out: list[Edge] = []
        for outgoing, name in ((True, "out"), (False, "in")):
            query, params = f"seeds/edges_{name}", {"ids": ids}
            if predicates is not None:
                query, params = f"seeds/edges_{name}_with", {"ids": ids, "predicates": predicates}
            for aid, pred, bid, blabel, btypes, blit in self.store.run(query, params):
                other = Entity(bid, blabel or "", tuple(btypes or ()), bool(blit))
                self.entities.setdefault(bid, other)
                out.append(Edge(aid, pred, other, outgoing))
        return out
