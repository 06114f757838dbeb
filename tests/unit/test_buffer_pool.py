"""Kùzu's page cache is sized from the database on disk and the memory available."""

from kgqa.graph.buffer_pool import FLOOR, MIB, READ_HEADROOM, WRITE_HEADROOM, buffer_pool_bytes, database_bytes
from kgqa.graph.store import GraphStore


def test_size_follows_the_database_and_stays_under_the_available_memory(tmp_path):
    db = tmp_path / "graph.kuzu"
    db.write_bytes(b"\0" * (3 * MIB))
    (tmp_path / "graph.kuzu.wal").write_bytes(b"\0" * MIB)
    assert database_bytes(db) == 4 * MIB
    plenty = 64 * 1024 * MIB
    assert buffer_pool_bytes(db, available=plenty) == 8 * MIB + WRITE_HEADROOM
    assert buffer_pool_bytes(db, read_only=True, available=plenty) == 8 * MIB + READ_HEADROOM
    db.write_bytes(b"\0" * (100 * MIB))  # a larger database gets a larger cache
    assert buffer_pool_bytes(db, available=plenty) == 202 * MIB + WRITE_HEADROOM
    assert buffer_pool_bytes(db, available=1024 * MIB) == 512 * MIB  # half of what is available
    assert buffer_pool_bytes(db, available=100 * MIB) == FLOOR
    assert buffer_pool_bytes(db, override_mib=96, available=plenty) == 96 * MIB  # KGQA_BUFFER_POOL_MIB


def test_a_store_opens_with_the_sized_cache(tmp_path):
    store = GraphStore(tmp_path / "graph.kuzu", create=True)
    assert store.scalar("graph/count_triples") == 0
    store.close()
    again = GraphStore(tmp_path / "graph.kuzu", read_only=True)
    assert again.has_table("Entity")
    again.close()
