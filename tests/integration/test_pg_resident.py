"""A primed pgvector store holds the whole index in memory (kgqa/vectorstores/pg_resident.py): its
scores, texts' hubs and paths equal Postgres's reads row for row, questions answer the same, a write by
any client (SQL included) makes it read Postgres until a new copy is read, and a ceiling without room
or an index without the change counter keeps it reading Postgres."""

from __future__ import annotations

import numpy as np
import psycopg
import pytest
from test_pgvector import create_database

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.demo import DEMO_QUESTIONS, demo_graph_path
from kgqa.vectorstores import pg_resident
from kgqa.vectorstores.pg_resident import NotHeld, fixed_blocks, variable_rows
from kgqa.vectorstores.pgvector_store import PgVectorHubStore

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture(scope="module")
def demo_index(pg_server, tmp_path_factory, embedder):
    """The demo graph in Kùzu with its HubLink index in pgvector; yields (settings, dsn)."""
    dsn = create_database(pg_server, "residentdemo")
    db = tmp_path_factory.mktemp("resident") / "demo.kuzu"
    with Workspace.init(Settings(db_path=db), embedder=embedder) as ws:
        ws.load(demo_graph_path())
    settings = Settings(db_path=db, store="pgvector", pg_dsn=dsn)
    with Workspace(settings, embedder=embedder) as ws:
        ws.build_index(IndexParams(hub_types=("Paper",)))
    return settings, dsn


def _asked(ws: Workspace) -> list:
    return [
        ws.ask(q, RetrievalParams(strategy=s, topic_entity=t if s == "traversal" else None, hubs_to_keep=10))
        for q, t in DEMO_QUESTIONS
        for s in ("traversal", "direct")
    ]


def _same_reads(held: PgVectorHubStore, plain: PgVectorHubStore) -> None:
    """Every hub's scored rows, every text's hubs and every path, from memory and from Postgres."""
    hubs = sorted(plain.signatures())
    rng = np.random.default_rng(5)
    queries = rng.normal(size=(3, 384)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    for some in (hubs, hubs[:7], hubs[-3:][::-1]):
        a, b = held.score_hubs(some, queries), plain.score_hubs(some, queries)
        assert len(a) == len(b) > 0
        assert (a.hub_ids, a.path_hashes, a.levels, a.texts) == (b.hub_ids, b.path_hashes, b.levels, b.texts)
        assert np.allclose(a.sims[a.text_rows], b.sims[b.text_rows], atol=1e-6)
    texts = plain.text_hashes()
    for limit in (1, 3, 50):
        assert held.text_hubs(texts + ["not-a-text", texts[0] + "0"], limit) == plain.text_hubs(texts, limit)
    paths = [r.hash for rec in plain.hub_records(hubs) for r in rec.paths]
    assert held.paths(paths + ["0" * 32]) == plain.paths(paths)


def test_resident_copy_reads_like_postgres_and_follows_writes(demo_index, embedder, monkeypatch):
    settings, dsn = demo_index
    plain = PgVectorHubStore(dsn, index="demo")
    with Workspace(settings, embedder=embedder) as ws:
        before = _asked(ws)  # not primed: every read from Postgres
        ws.vstore.prime()
        resident = ws.vstore.resident
        assert resident is not None and resident.reads == 1 and resident.nbytes > 0
        assert ws.vstore.held_note() == (
            f"index in memory: {resident.nbytes / 2**20:,.1f} MiB read from Postgres "
            "(Postgres is read after a write, until a new copy)"
        )
        worker = PgVectorHubStore(dsn, index="demo", room=lambda n: True)  # a service's second workspace
        worker.prime(like=ws.vstore)
        assert worker.resident is resident and resident.reads == 1  # shared, not read again
        _same_reads(ws.vstore, plain)
        after = _asked(ws)
        assert [(a.answer, a.triples, [h.hub_id for h in a.hubs]) for a in after] == [
            (b.answer, b.triples, [h.hub_id for h in b.hubs]) for b in before
        ]
        # a write by another client, in SQL: the copy is dropped and Postgres read at once
        gone = sorted(plain.signatures())[0]
        total = plain.db.scalar("index_change_total")
        with psycopg.connect(dsn) as conn:
            conn.execute("DELETE FROM kgqa_demo.hubs WHERE id = %s", (gone,))
        assert plain.db.scalar("index_change_total") > total
        assert ws.vstore.score_hubs([gone], np.ones((1, 384), np.float32) / 384**0.5).hub_ids == []
        assert resident.nbytes == 0 and resident.reads == 1
        # once the index is quiet, a new copy is read on a thread of its own, without the deleted hub
        monkeypatch.setattr(pg_resident, "QUIET_S", 0.0)
        monkeypatch.setattr(pg_resident, "READ_GAP", 0.0)
        ws.vstore.text_hubs(["x"], 1)  # any read notices the change and starts the new copy
        assert resident._reader is not None
        resident._reader.join(timeout=60)
        assert resident.reads == 2 and resident.nbytes > 0
        held = ws.vstore._held()
        assert held is not None and gone not in held.hub_table._rows.hub_number
        _same_reads(ws.vstore, plain)


def test_no_room_or_no_counter_reads_postgres(demo_index, embedder):
    settings, dsn = demo_index
    asked: list[int] = []
    store = PgVectorHubStore(dsn, index="demo", room=lambda n: bool(asked.append(n)))
    store.prime()
    assert store.resident is None and len(asked) == 1 and asked[0] > 0  # asked for room, refused
    assert store.held_note() is None
    worker = PgVectorHubStore(dsn, index="demo", room=lambda n: True)
    worker.prime(like=store)
    assert worker.resident is None  # the service's first store holds none: neither does the next
    with psycopg.connect(dsn, autocommit=True) as conn:  # an index built before the counter existed
        conn.execute("ALTER FUNCTION kgqa_demo.index_change_total() RENAME TO index_change_total_away")
        try:
            store = PgVectorHubStore(dsn, index="demo", room=lambda n: True)
            store.prime()
            assert store.resident is None
            hubs = sorted(store.signatures())[:2]
            assert len(store.score_hubs(hubs, np.ones((1, 384), np.float32) / 384**0.5)) > 0
        finally:
            conn.execute("ALTER FUNCTION kgqa_demo.index_change_total_away() RENAME TO index_change_total")


def test_copy_rows_are_parsed_or_refused(demo_index):
    _, dsn = demo_index
    store = PgVectorHubStore(dsn, index="demo")
    layout = np.dtype(
        [("n", ">i2"), ("hash_len", ">i4"), ("hash", "S32"), ("seq_len", ">i4"), ("seq", ">i8")]
        + [("vec_len", ">i4"), ("dim", ">i2"), ("unused", ">i2"), ("vec", ">f2", (384,))]
    )
    chunks = list(store.db.copy_out("resident_texts"))
    rows = np.concatenate(list(fixed_blocks(chunks, layout)))
    stored = store.embeddings(rows["hash"][:3].astype(str).tolist())
    assert len(rows) == store.counts().texts and (rows["dim"] == 384).all()
    for row in rows[:3]:
        assert np.array_equal(row["vec"].astype(np.float32), stored[row["hash"].decode()][1])
    whole = b"".join(chunks)
    with pytest.raises(NotHeld):  # cut inside a row
        list(fixed_blocks([whole[:-40]], layout))
    with pytest.raises(NotHeld):  # not a binary COPY
        list(fixed_blocks([b"hash,text\n"], layout))
    packed = list(variable_rows(store.db.copy_out("resident_vectors"), 2))
    assert len(packed) == store.counts().paths
    assert sum(len(pack) for _, pack in packed) == store.counts().vectors * pg_resident.PACKED.itemsize
    whole = b"".join(store.db.copy_out("resident_vectors"))
    assert list(variable_rows([whole[i : i + 7] for i in range(0, len(whole), 7)], 2)) == packed  # any split
    with pytest.raises(NotHeld):
        list(variable_rows([whole[:-5]], 2))


def test_searches_at_once_find_what_each_search_finds(demo_index):
    """A question's HNSW searches run at once on up to three connections: each finds what it finds alone,
    in the order of the query vectors, for more vectors than connections too."""
    _, dsn = demo_index
    store = PgVectorHubStore(dsn, index="demo")
    vectors = np.stack([v for _, v in store.embeddings(store.text_hashes()[:5]).values()])
    try:
        alone = [[(h, sim) for h, _text, sim in store.nearest_texts(v, 7)] for v in vectors]
        for n in (1, 2, 5):
            at_once = store.nearest_each(vectors[:n], 7)
            assert [[h for h, _ in hits] for hits in at_once] == [[h for h, _ in hits] for hits in alone[:n]]
            assert np.allclose([s for hits in at_once for _, s in hits], [s for hits in alone[:n] for _, s in hits])
        assert len(store._searchers) == 2  # the store's own connection and two more
    finally:
        store.close()
    assert store._searchers == [] and store._search_pool is None
