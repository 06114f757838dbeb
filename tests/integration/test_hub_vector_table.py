"""A read-only service holds every HubVector in memory (kgqa/vectorstores/hub_vector_table.py) where the
memory ceiling leaves the page cache room beside it, and scores and answers exactly as its reads from
Kùzu do (issue 30: reading ~90 hubs' vectors was most of a slow direct question at 10^6 triples)."""

from __future__ import annotations

import numpy as np
import pytest
from serve_helpers import build_demo_db

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.memory import MIB, MIN_POOL, PROCESS_RESERVE, MemoryCeiling
from kgqa.retrieval.hublink.hits import HitTable
from kgqa.vectorstores.hub_vector_table import table_bytes
from kgqa.vectorstores.kuzu_store import KuzuHubVectorStore

pytestmark = pytest.mark.slow

QUESTIONS = (
    "Which papers were published at ICSA in 2019?",
    "How many papers did Priya Raghunathan publish?",
    "Which papers use a case study?",
)


def _by_path(table: HitTable) -> dict:
    """Order-free view of a hit table, similarities to 6 places (the matrix product's sums may round
    apart in the last bit between two layouts of the same float16 values)."""
    return {
        h.path_hash: (h.hub_id, h.level, h.text, np.round(h.similarities, 6).tolist(), np.round(best, 6).tolist())
        for h, best in zip(table.best_hit, table.path_best)
    }


def _open(db, embedder, memory: str) -> Workspace:
    settings = Settings(db_path=db, memory=MemoryCeiling.from_setting(memory, "--memory"))
    ws = Workspace(settings, read_only=True, embedder=embedder)
    ws.index_status()  # what a service does first: learns the index's dimension
    return ws


def _answers(ws: Workspace) -> list[tuple[str, list, list]]:
    return [(a.answer, [s.hub_id for s in a.sources], a.triples) for a in map(ws.ask, QUESTIONS)]


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, embedder):
    return build_demo_db(tmp_path_factory.mktemp("table") / "demo.kuzu", embedder)


def test_the_table_scores_and_answers_as_the_reads_from_kuzu(demo_db, embedder):
    # a ceiling whose page-cache share (300 MiB) is what the database is opened with: the table's bytes
    # come out of it
    ws = _open(demo_db, embedder, f"{PROCESS_RESERVE // MIB + 300}M")
    try:
        opened = ws.store.pool_bytes
        assert opened == 300 * MIB
        ws.vstore.prime()
        table = ws.vstore.hub_table
        assert table is not None and 0 < table.nbytes <= table_bytes(ws.vstore.counts(), ws.vstore.dim)
        paths = ws.vstore.path_table  # every path too: the ceiling has room for both
        assert paths is not None and len(paths) == ws.vstore.counts().paths
        assert ws.vstore.held_note() == (
            f"index in memory: hub vectors {table.nbytes / MIB:,.1f} MiB, every path {paths.nbytes / MIB:,.1f} MiB"
        )
        # the page cache gave up what both tables hold
        assert ws.store.pool_bytes <= (opened - table.nbytes - paths.nbytes) // MIB * MIB
        assert ws.store.pool_bytes >= opened - 2 * (table_bytes(ws.vstore.counts(), ws.vstore.dim) + paths.nbytes)
        from_kuzu = KuzuHubVectorStore(ws.store, ws.vstore.dim)  # read-only, not primed: reads Kùzu
        hubs = sorted(ws.vstore.signatures())
        for question in QUESTIONS:
            queries = embedder.embed([question, "ICSA"])
            for asked in (hubs, hubs[::-3] + ["no-such-hub"], ["no-such-hub"]):
                kept = HitTable.from_scored(table.score(asked, queries), {1: "ICSA"})
                read = HitTable.from_scored(from_kuzu.score_hubs(asked, queries), {1: "ICSA"})
                assert _by_path(kept) == _by_path(read)
                assert {h: np.round(v, 6).tolist() for h, v in kept.hub_best.items()} == {
                    h: np.round(v, 6).tolist() for h, v in read.hub_best.items()
                }
                kept_sims, read_sims = dict(kept.sims), dict(read.sims)
                assert kept_sims.keys() == read_sims.keys()
                assert all(np.allclose(kept_sims[t], read_sims[t], rtol=0, atol=1e-6) for t in kept_sims)
                assert len(kept.best_hit) > 10 if asked == hubs else asked != ["no-such-hub"] or not kept.best_hit
        every = [r.hash for r in paths.find([h.decode() for h in paths.sorted_hashes.tolist()])]
        assert len(every) == len(paths)
        assert ws.vstore.paths(every) == from_kuzu.paths(every)  # the same records as Kùzu's
        assert ws.vstore.paths(["no-such-path", every[0]]).keys() == {every[0]}
        with_table = _answers(ws)
        ws.vstore.hub_table = None  # the same workspace reading its hubs' vectors from Kùzu
        assert _answers(ws) == with_table and all(triples for _, _, triples in with_table)
        ws.vstore.path_table = None  # ... and its paths
        assert _answers(ws) == with_table
        other = KuzuHubVectorStore(ws.store, ws.vstore.dim)
        ws.vstore.hub_table, ws.vstore.path_table = table, paths
        other.prime(like=ws.vstore)  # a service's second workspace shares the tables
        assert other.hub_table is table and other.path_table is paths
    finally:
        ws.close()


def test_a_ceiling_without_room_for_the_table_keeps_the_page_cache(demo_db, embedder):
    ws = _open(demo_db, embedder, f"{(PROCESS_RESERVE + MIN_POOL) // MIB}M")  # the smallest ceiling
    try:
        opened = ws.store.pool_bytes
        ws.vstore.prime()
        assert ws.vstore.hub_table is None and ws.vstore.text_hub_index is not None
        assert ws.vstore.path_table is None and ws.vstore.held_note() is None
        assert ws.store.pool_bytes == opened == MIN_POOL
        assert all(triples for _, _, triples in _answers(ws))
    finally:
        ws.close()


def test_float32_copies_are_read_from_kuzu_with_the_page_cache_given_back(tmp_path, embedder):
    db = tmp_path / "f32.kuzu"
    with Workspace.init(Settings(db_path=db, half_vectors=False), embedder=embedder) as ws:
        ws.load(demo_graph_path())
        ws.build_index(IndexParams(hub_types=("Paper",)))
    ws = _open(db, embedder, f"{PROCESS_RESERVE // MIB + 300}M")
    try:
        ws.vstore.prime()
        assert ws.vstore.hub_table is None and ws.vstore.text_hub_index is not None
        assert ws.store.pool_bytes == 300 * MIB
        assert all(triples for _, _, triples in _answers(ws))
    finally:
        ws.close()


def test_paths_larger_than_their_estimate_are_not_kept(demo_db, embedder, monkeypatch):
    """The path table's room is estimated from characters; read, it is measured in bytes, and a table that
    then does not fit beside the page cache's least is let go rather than held past the ceiling."""
    from kgqa.vectorstores.path_table import PathTable

    ws = _open(demo_db, embedder, f"{PROCESS_RESERVE // MIB + 300}M")
    try:
        monkeypatch.setattr(PathTable, "nbytes", property(lambda self: 10 * 1024 * MIB))
        ws.vstore.prime()
        assert ws.vstore.hub_table is not None and ws.vstore.path_table is None
        assert ws.store.pool_bytes >= MIN_POOL and all(triples for _, _, triples in _answers(ws))
    finally:
        ws.close()
