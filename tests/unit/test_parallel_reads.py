"""Reads of one question split between connections of a read-only Kùzu database (kgqa/graph/readers.py)."""

from __future__ import annotations

import threading

import pytest

from kgqa.errors import StoreError
from kgqa.graph import readers
from kgqa.graph.readers import _shares
from kgqa.graph.store import GraphStore


def test_shares_cover_every_item_once_in_order():
    for n in range(0, 12):
        for parts in (1, 2, 3, 4):
            shares = _shares(n, parts)
            covered = [i for lo, hi in shares for i in range(lo, hi)]
            assert covered == list(range(n)) and all(hi > lo for lo, hi in shares)
            assert len(shares) == min(parts, n)
            sizes = [hi - lo for lo, hi in shares]
            assert not sizes or max(sizes) - min(sizes) <= 1


@pytest.fixture()
def read_only_db(tmp_path):
    path = tmp_path / "g.kuzu"
    store = GraphStore(path, create=True)
    store.query("UNWIND range(0, 199) AS i CREATE (:Entity {id: 'E' + string(i), label: 'entity ' + string(i)})")
    store.close()
    ro = GraphStore(path, read_only=True)
    yield ro
    ro.close()


def test_a_read_only_store_splits_a_batch_between_threads_and_keeps_its_order(read_only_db, monkeypatch):
    ids = [f"E{i}" for i in range(199, -1, -3)] + ["missing"]
    threads: set[str] = set()
    real_map = readers.ReaderPool.map

    def watched(self, run, items):
        def run_watched(conn, index, item):
            threads.add(threading.current_thread().name)
            return run(conn, index, item)

        return real_map(self, run_watched, items)

    monkeypatch.setattr(readers.ReaderPool, "map", watched)
    monkeypatch.setattr(readers, "READERS", 2)
    rows = read_only_db.run_each("graph/entity_by_id", "id", ids)
    assert [r[0] for r in rows] == ids[:-1] and rows[0][1] == "entity 199"
    assert len(threads) == 2  # the calling thread and one reader thread
    again = read_only_db.run_many("graph/entity_by_id", [{"id": "E5"}, {"id": "missing"}, {"id": "E7"}] * 3)
    assert [[r[0] for r in rows] for rows in again] == [["E5"], [], ["E7"]] * 3


def test_an_error_in_any_share_is_raised_and_the_store_still_reads(read_only_db, monkeypatch):
    monkeypatch.setattr(readers, "READERS", 2)
    with pytest.raises(StoreError, match="graph/entity_by_id"):
        # the last share names a parameter the query does not have: Kùzu refuses it on the reader thread
        read_only_db.run_many("graph/entity_by_id", [{"id": "E1"}] * 5 + [{"no_such_parameter": "E1"}] * 5)
    assert [r[0] for r in read_only_db.run_each("graph/entity_by_id", "id", ["E1", "E2", "E3", "E4"])] == [
        "E1",
        "E2",
        "E3",
        "E4",
    ]


def test_a_writable_store_reads_on_its_own_connection(tmp_path):
    store = GraphStore(tmp_path / "w.kuzu", create=True)
    try:
        store.query("CREATE (:Entity {id: 'A', label: 'a'})")
        assert store.run_each("graph/entity_by_id", "id", ["A"] * 6)[0][0] == "A"
        assert store._readers is None
    finally:
        store.close()


def test_a_store_with_udfs_reads_on_the_connection_that_has_them(read_only_db):
    read_only_db.register_function("kgqa_test_upper", lambda s: s.upper(), ["STRING"], "STRING")
    rows = read_only_db.run_each("graph/entity_by_id", "id", ["E1", "E2", "E3", "E4", "E5"])
    assert [r[0] for r in rows] == ["E1", "E2", "E3", "E4", "E5"] and read_only_db._readers is None
