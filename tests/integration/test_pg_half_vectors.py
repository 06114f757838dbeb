"""pgvector indexes store their embeddings as halfvec (2 bytes per dimension, KGQA_HALF_VECTORS, on by
default): the HNSW index is halfvec_cosine_ops, a Kùzu index with float16 exact-scoring copies gives the
same hubs, scores and answers, and an index written as `vector` before keeps working as it is."""

from __future__ import annotations

import psycopg
import pytest
from test_pgvector import create_database

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.demo import DEMO_QUESTIONS, demo_graph_path

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _column_and_index(dsn: str) -> tuple[str, str]:
    with psycopg.connect(dsn) as conn:
        column = conn.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'kgqa_demo.embedded_texts'::regclass AND attname = 'embedding'"
        ).fetchone()[0]
        index = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'embedded_texts_hnsw'").fetchone()[0]
    return column, index


def _asked(settings: Settings, embedder) -> list:
    with Workspace(settings, embedder=embedder) as ws:
        return [
            ws.ask(q, RetrievalParams(strategy=s, topic_entity=t if s == "traversal" else None, hubs_to_keep=10))
            for q, t in DEMO_QUESTIONS
            for s in ("traversal", "direct")
        ]


def _hnsw_build_memory(store) -> None:
    """The HNSW build's maintenance_work_mem: sized from the stored texts, capped by the memory ceiling,
    never below the server's, and the server's again after the build."""
    show = lambda: store.db.conn.execute("SHOW maintenance_work_mem").fetchone()[0]  # noqa: E731
    server = show()
    texts = store.counts().texts
    assert store.hnsw_build_bytes() == int(texts * (384 * 2 + 8 + 2 * 16 * 16 + 256) * 1.1)
    store.build_memory, ceiling = 2**20, store.build_memory
    assert store.hnsw_build_bytes() == 2**20
    store.build_memory = ceiling
    assert store.db.scalar("hnsw_build_memory", {"kib": 1}) == server  # never lowered
    assert store.db.scalar("hnsw_build_memory", {"kib": 3 * 2**20}) == "3GB"
    store.db.run("hnsw_build_memory_reset")
    assert show() == server
    store.db.script("drop", "DROP INDEX kgqa.embedded_texts_hnsw")
    assert store.ensure_ann_index() and show() == server


def _scores_are_the_stored_vectors(store) -> None:
    """score_hubs reads each distinct text once with the HubVectors that embed it: every HubVector of the
    hubs comes back (ordered by path), scored exactly as its stored vector."""
    import numpy as np

    hubs = sorted(store.signatures())[:6]
    stored = store.embeddings(store.text_hashes())
    by_text = {text: vec for text, vec in stored.values()}
    queries = np.stack([next(iter(by_text.values())), list(by_text.values())[-1]])
    scored = store.score_hubs(hubs, queries)
    schema = store.db.schema
    count = store.db.conn.execute(
        f"SELECT count(*) FROM {schema}.hub_paths p JOIN {schema}.hub_vectors v ON v.path_hash = p.hash "
        "WHERE p.hub_id = ANY(%s)",
        (hubs,),
    ).fetchone()[0]
    assert len(scored) == count > 0 and set(scored.hub_ids) == set(hubs)
    assert scored.path_hashes == sorted(scored.path_hashes)
    for i, text in enumerate(scored.texts):
        assert np.allclose(scored.sims[scored.text_rows[i]], by_text[text] @ queries.T, atol=1e-6)


def test_new_pgvector_index_is_halfvec_and_answers_like_kuzu(pg_server, tmp_path, embedder):
    dsn = create_database(pg_server, "halfdemo")
    db = tmp_path / "demo.kuzu"
    kuzu, pg = Settings(db_path=db), Settings(db_path=db, store="pgvector", pg_dsn=dsn)
    assert kuzu.half_vectors and pg.half_vectors  # the default
    with Workspace.init(kuzu, embedder=embedder) as ws:
        ws.load(demo_graph_path())
        ws.build_index(IndexParams(hub_types=("Paper",)))
    with Workspace(pg, embedder=embedder) as ws:
        ws.build_index(IndexParams(hub_types=("Paper",)))
        assert ws.vstore.half() and ws.index_status().ann_index
        stored = ws.vstore.embeddings(ws.vstore.text_hashes()[:5])
        assert all(v.dtype.name == "float32" and abs(float((v * v).sum()) - 1) < 1e-2 for _, v in stored.values())
        _hnsw_build_memory(ws.vstore)
        _scores_are_the_stored_vectors(ws.vstore)
    column, index = _column_and_index(dsn)
    assert column == "halfvec(384)" and "halfvec_cosine_ops" in index
    for k, p in zip(_asked(kuzu, embedder), _asked(pg, embedder)):
        assert [h.hub_id for h in p.hubs] == [h.hub_id for h in k.hubs]
        assert [round(h.score, 3) for h in p.hubs] == [round(h.score, 3) for h in k.hubs]
        assert p.triples == k.triples and p.answer == k.answer


def test_an_index_stored_as_vector_keeps_its_type(pg_server, tmp_path, embedder):
    dsn = create_database(pg_server, "fulldemo")
    db = tmp_path / "demo.kuzu"
    with Workspace.init(Settings(db_path=db), embedder=embedder) as ws:
        ws.load(demo_graph_path())
    full = Settings(db_path=db, store="pgvector", pg_dsn=dsn, half_vectors=False)
    with Workspace(full, embedder=embedder) as ws:
        ws.build_index(IndexParams(hub_types=("Paper",)))
        assert not ws.vstore.half()
        _scores_are_the_stored_vectors(ws.vstore)
    before = _asked(full, embedder)
    assert _column_and_index(dsn)[0] == "vector(384)"
    half = Settings(db_path=db, store="pgvector", pg_dsn=dsn)  # the default now: an existing index keeps vector
    with Workspace(half, embedder=embedder) as ws:
        report = ws.build_index(IndexParams(hub_types=("Paper",)), rebuild=False)
        assert report.nothing_to_do and not ws.vstore.half()
    column, index = _column_and_index(dsn)
    assert column == "vector(384)" and "vector_cosine_ops" in index
    after = _asked(half, embedder)
    assert [(a.answer, a.triples) for a in after] == [(b.answer, b.triples) for b in before]
