"""The state a bad input must not change: counts and a content hash of the graph (entities and
triples), the hub index (hubs, paths, HubVectors, embedded texts, metadata), the dirty marks and
the label index, for a Kùzu database and for a pgvector index."""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from kgqa.api import Workspace
from kgqa.config import Settings

#: A small scholarly graph: six papers (hub type Paper) at two venues, with authors and literals.
GRAPH_CSV = """subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal
P1,venue,V1,Graph QA at Scale,Paper,ICSA,Venue,false
P1,publication year,2019,Graph QA at Scale,Paper,,,true
P1,author,A1,Graph QA at Scale,Paper,Ada Lovelace,Author,false
P2,venue,V1,Hubs for Retrieval,Paper,ICSA,Venue,false
P2,publication year,2020,Hubs for Retrieval,Paper,,,true
P2,author,A2,Hubs for Retrieval,Paper,Alan Turing,Author,false
P3,venue,V2,Paths and Answers,Paper,ECSA,Venue,false
P3,publication year,2019,Paths and Answers,Paper,,,true
P3,evaluation method,M1,Paths and Answers,Paper,Case Study,Method,false
P4,venue,V2,Citations Everywhere,Paper,ECSA,Venue,false
P4,evaluation method,M2,Citations Everywhere,Paper,Controlled Experiment,Method,false
P5,venue,V1,Schema-agnostic Retrieval,Paper,ICSA,Venue,false
P5,author,A1,Schema-agnostic Retrieval,Paper,Ada Lovelace,Author,false
P6,venue,V2,Training-free KGQA,Paper,ECSA,Venue,false
P6,publication year,2021,Training-free KGQA,Paper,,,true
"""

QUESTIONS_CSV = (
    "uid,question,topic_entity_id,golden_triples\n"
    "q1,Which papers were published at ICSA?,V1,[]\n"
    "q2,Which evaluation method does Paths and Answers use?,P3,[]\n"
)


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class State:
    """Counts and content hashes; equal states mean nothing stored changed."""

    counts: tuple[int, ...]  # entities, triples, hubs, paths, vectors, texts, dirty marks
    graph: str
    index: str
    meta: str

    def __str__(self) -> str:
        names = ("entities", "triples", "hubs", "paths", "vectors", "texts", "dirty")
        return ", ".join(f"{n} {c}" for n, c in zip(names, self.counts)) + f"; graph {self.graph}, index {self.index}"


def kuzu_state(db: Path) -> State:
    """The state of a Kùzu database (opened read-only)."""
    with Workspace(Settings(db_path=db), read_only=True) as ws:
        return workspace_state(ws)


def workspace_state(ws: Workspace) -> State:
    """The state of an open workspace's Kùzu database."""
    q = ws.store.query
    entities = q("MATCH (e:Entity) RETURN e.id, e.label, e.types, e.is_literal ORDER BY e.id")[1]
    triples = q(
        "MATCH (s:Entity)-[t:Triple]->(o:Entity) RETURN s.id, t.predicate, o.id ORDER BY s.id, t.predicate, o.id"
    )[1]
    hubs = paths = vectors = texts = []
    if ws.store.has_table("kgqa_Hub"):
        hubs = q("MATCH (h:kgqa_Hub) RETURN h.id, h.signature ORDER BY h.id")[1]
        paths = q("MATCH (h:kgqa_Hub)-[:kgqa_HasPath]->(p:kgqa_HubPath) RETURN h.id, p.hash, p.text ORDER BY p.hash")[1]
        vectors = q(
            "MATCH (p:kgqa_HubPath)-[e:kgqa_Embeds]->(t:kgqa_EmbeddedText) RETURN p.hash, e.level, t.hash "
            "ORDER BY p.hash, e.level, t.hash"
        )[1]
        texts = q("MATCH (t:kgqa_EmbeddedText) RETURN t.hash ORDER BY t.hash")[1]
    dirty = ws.dirty_hubs()
    meta = (ws.store.meta_get("hub_index"), ws.store.meta_get("label_index"))
    counts = (len(entities), len(triples), len(hubs), len(paths), len(vectors), len(texts), len(dirty))
    return State(counts, _digest(entities, triples), _digest(hubs, paths, vectors, texts, sorted(dirty)), _digest(meta))


def index_schemas(conn: psycopg.Connection) -> list[str]:
    """The schemas of the named HubLink indexes in this database (kgqa_<name> with a hubs table)."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT n.nspname FROM pg_namespace n WHERE n.nspname LIKE 'kgqa\\_%' "
            "AND to_regclass(quote_ident(n.nspname) || '.hubs') IS NOT NULL ORDER BY 1"
        )
    ]


def pg_state(dsn: str) -> State:
    """The state of every pgvector index in the database (hubs, paths, vectors, texts and metadata)."""
    hubs, paths, vectors, texts, meta = [], [], [], [], []
    with psycopg.connect(dsn) as conn:
        schemas = index_schemas(conn)
        if not schemas:
            return State((0,) * 7, "-", _digest(), "-")
        for schema in schemas:
            ix = sql.Identifier(schema)

            def rows(query: str, schema: str = schema, ix: sql.Identifier = ix) -> list[tuple]:
                return [(schema, *r) for r in conn.execute(sql.SQL(query).format(ix=ix)).fetchall()]

            hubs += rows("SELECT id, signature FROM {ix}.hubs ORDER BY id")
            paths += rows("SELECT hash, hub_id, text FROM {ix}.hub_paths ORDER BY hash")
            vectors += rows("SELECT path_hash, level, text_hash FROM {ix}.hub_vectors ORDER BY 1, 2, 3")
            texts += rows("SELECT hash FROM {ix}.embedded_texts ORDER BY hash")
            meta += rows("SELECT key, value::text FROM {ix}.meta ORDER BY key")
    counts = (0, 0, len(hubs), len(paths), len(vectors), len(texts), 0)
    return State(counts, "-", _digest(hubs, paths, vectors, texts), _digest(meta))


def copy_db(db: Path, to_dir: Path) -> Path:
    """A copy of a (closed) Kùzu database, its WAL included, under `to_dir`; returns its path."""
    to_dir.mkdir(parents=True, exist_ok=True)
    for f in db.parent.glob(db.name + "*"):
        (shutil.copytree if f.is_dir() else shutil.copy2)(f, to_dir / f.name)
    return to_dir / db.name
