"""Writes extracted facts into the graph: entities, triples, triple hypernodes and provenance, in one
transaction (a failure leaves nothing behind); writing the same facts again adds nothing.

Ids: a named entity is `kg:<slug>`, a literal `kg:lit:<slug>` (same text, same entity). A qualified fact
(s, p, o; q1: v1, ...) is stored as the plain triple (s, p, o) plus a triple hypernode: an entity
`kg:fact:<hash>` of type TripleHypernode labelled with the fact's full meaning "s p o", with edges
`fact subject` -> s, `fact object` -> o and one edge per qualifier (q1 -> v1). Every triple written is
linked to the passage that states it (Passage -[Asserts]-> subject, with predicate and object id)."""

from __future__ import annotations

import hashlib
import re

from kgqa.graph.loaders.base import EntityRecord, TripleRecord
from kgqa.graph.store import GraphStore
from kgqa.graph.writer import write_records
from kgqa.textkg.rules import Fact, Term

HYPERNODE_TYPE = "TripleHypernode"
SUBJECT_EDGE = "fact subject"
OBJECT_EDGE = "fact object"


def entity_id(term: Term) -> str:
    """The stable id of a subject, object or qualifier value."""
    slug = re.sub(r"[^0-9a-z]+", "-", term.text.lower()).strip("-") or hashlib.sha1(term.text.encode()).hexdigest()[:10]
    return f"kg:lit:{slug}" if term.literal else f"kg:{slug}"


def hypernode_id(fact: Fact) -> str:
    """The id of a qualified fact's hypernode (same fact, same node)."""
    key = "\x1f".join((entity_id(fact.subject), fact.predicate, entity_id(fact.object)))
    return "kg:fact:" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


def write_facts(store: GraphStore, facts: list[Fact], extractor: str) -> int:
    """Write the facts with their passages; returns the number of hypernodes among them."""
    records: list[TripleRecord] = []
    asserts: list[dict[str, str]] = []
    passages: dict[str, dict] = {}
    hypernodes = set()

    def triple(s: EntityRecord, p: str, o: EntityRecord, passage_id: str, line: int) -> None:
        records.append(TripleRecord(s, p, o, line))
        asserts.append({"passage": passage_id, "subject": s.id, "predicate": p, "object": o.id})

    for f in facts:
        pa = f.passage
        passages[pa.id] = {
            "id": pa.id,
            "source": pa.source,
            "sentence": pa.sentence,
            "start_offset": pa.start,
            "end_offset": pa.end,
            "text": pa.text,
            "extractor": extractor,
        }
        s, o = _record(f.subject), _record(f.object)
        triple(s, f.predicate, o, pa.id, pa.sentence)
        if f.qualifiers:
            h = EntityRecord(hypernode_id(f), f"{f.subject.text} {f.predicate} {f.object.text}", (HYPERNODE_TYPE,))
            hypernodes.add(h.id)
            triple(h, SUBJECT_EDGE, s, pa.id, pa.sentence)
            triple(h, OBJECT_EDGE, o, pa.id, pa.sentence)
            for q, value in f.qualifiers:
                triple(h, q, _record(value), pa.id, pa.sentence)
    with store.transaction():
        if passages:
            store.run("textkg/upsert_passages", {"rows": list(passages.values())})
        write_records(store, records)
        for i in range(0, len(asserts), 5000):
            store.run("textkg/insert_asserts", {"rows": asserts[i : i + 5000]})
    return len(hypernodes)


def _record(term: Term) -> EntityRecord:
    return EntityRecord(entity_id(term), term.text, None, term.literal)
