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


def test_a_grown_database_is_reopened_with_a_larger_cache(tmp_path, monkeypatch):
    """Before Kùzu builds the HNSW index (vectors in the cache), a store whose database grew since it
    was opened reopens it with the cache sized for its size now; a cache set by the user is kept."""
    import kgqa.graph.store as store_module

    store = GraphStore(tmp_path / "graph.kuzu", create=True)
    opened_with = store.pool_bytes
    assert not store.grow_buffer_pool()  # it grew by its schema only
    monkeypatch.setattr(store_module, "buffer_pool_bytes", lambda *a, **k: 2 * opened_with)
    assert store.grow_buffer_pool() and store.pool_bytes == 2 * opened_with
    assert store.scalar("graph/count_triples") == 0 and store.has_table("Entity")  # the new connection works
    store.close()
    monkeypatch.undo()
    fixed = GraphStore(tmp_path / "graph.kuzu", buffer_pool_mib=300)
    assert not fixed.grow_buffer_pool() and fixed.pool_bytes == 300 * MIB
    fixed.close()
