"""Every stored path in memory, found by hash (kgqa/vectorstores/path_table.py)."""

from __future__ import annotations

import pyarrow as pa

from kgqa.vectorstores import path_table
from kgqa.vectorstores.path_table import PathRow, PathTable, estimated_bytes


def _reader(rows: dict[int, tuple[str, str, str, str]]):
    """A `read` over paths at these node offsets, answering the two named queries the table runs."""
    calls: list[tuple[str, dict | None]] = []

    def read(name: str, params: dict | None) -> pa.Table:
        calls.append((name, params))
        if name == "retrieval/path_offset_max":
            return pa.table({"m": [max(rows) if rows else None]})
        assert name == "retrieval/paths_in_range" and params is not None
        window = [rows[o] for o in sorted(rows) if params["lo"] <= o < params["hi"]]
        return pa.table([pa.array([r[i] for r in window], pa.string()) for i in range(4)], names=list("abcd"))

    return read, calls


def test_paths_are_found_by_hash_in_the_order_asked(monkeypatch):
    monkeypatch.setattr(path_table, "WINDOW", 2)  # three windows, one of them empty (a deleted path's gap)
    rows = {
        0: ("c3", "P1", "text c", "[]"),
        1: ("a1", "P2", "text a", '[["s","S","p","o","O"]]'),
        4: ("b22", "P1", "text b", "[]"),
    }
    read, calls = _reader(rows)
    table = PathTable.read(read)
    assert len(table) == 3 and [c[0] for c in calls].count("retrieval/paths_in_range") == 3
    assert table.find(["b22", "nope", "a1", "a", "c3x", "c3"]) == [
        PathRow("b22", "P1", "text b", "[]"),
        PathRow("a1", "P2", "text a", '[["s","S","p","o","O"]]'),
        PathRow("c3", "P1", "text c", "[]"),
    ]
    assert table.find(["much-longer-than-every-stored-hash"]) == [] and table.find([]) == []
    assert table.nbytes >= sum(len("".join(r)) for r in rows.values())
    assert estimated_bytes(3, 40) > 40


def test_an_index_without_paths_finds_nothing():
    read, _ = _reader({})
    table = PathTable.read(read)
    assert len(table) == 0 and table.find(["a1"]) == []
