"""The in-memory text -> hub arrays of a read-only Kùzu store (kgqa/vectorstores/text_hub_index.py)."""

from __future__ import annotations

import numpy as np

from kgqa.vectorstores.text_hub_index import TextHubIndex


def test_a_texts_hubs_are_its_paths_hubs_counted_once_first_by_id():
    # paths (node offset -> hub); offset 2 was deleted, so the offsets have a gap
    index = TextHubIndex.build(
        [0, 1, 3, 4, 5],
        ["P9", "P1", "P1", "P5", "P3"],
        np.array([7, 7, 7, 7, 2, 7, 0]),  # HubVectors: text offset ...
        np.array([0, 1, 3, 4, 3, 5, 1]),  # ... and the path that embeds it
    )
    assert index.hub_ids == ("P1", "P3", "P5", "P9")
    assert index.hubs(7, 100) == (4, ["P1", "P3", "P5", "P9"])  # P1 through two paths, counted once
    assert index.hubs(7, 2) == (4, ["P1", "P3"])  # the fan-out stays the full count
    assert index.hubs(2, 5) == (1, ["P1"]) and index.hubs(0, 5) == (1, ["P1"])
    assert index.hubs(1, 5) is None and index.hubs(8, 5) is None and index.hubs(-1, 5) is None


def test_an_empty_index_finds_nothing():
    index = TextHubIndex.build([], [], np.zeros(0, np.int64), np.zeros(0, np.int64))
    assert index.hubs(0, 3) is None and index.hub_ids == ()


def test_texts_hashes_by_node_offset_and_shared_texts_kept():
    import pyarrow as pa

    from kgqa.vectorstores import text_hub_index

    index = TextHubIndex.build([0, 1, 2], ["P1", "P2", "P3"], np.array([4, 4, 4, 1]), np.array([0, 1, 2, 0]))
    index = index.with_hashes(np.array([4, 1, 0]), pa.array(["h4", "h1", "h0"]))
    assert index.hashes_at([1, 4, 0, 2, 3, 5, -1]) == ["h1", "h4", "h0", None, None, None, None]
    assert index.nbytes > 0 and index.hubs(4, 2) == (3, ["P1", "P2"])
    index_small = TextHubIndex.build([0], ["P1"], np.array([0]), np.array([0]))
    try:
        index_small.hashes_at([0])
        raise AssertionError("no hashes were given")
    except ValueError:
        pass
    # a text shared by more paths than SHARED_PATHS keeps what was found for it
    old = text_hub_index.SHARED_PATHS
    text_hub_index.SHARED_PATHS = 2
    try:
        assert index.hubs(4, 2) == (3, ["P1", "P2"]) and index.shared == {(4, 2): (3, ["P1", "P2"])}
        assert index.hubs(4, 2) is index.shared[(4, 2)] and index.hubs(1, 2) == (1, ["P1"])
        assert len(index.shared) == 1  # a text of one path is not kept
    finally:
        text_hub_index.SHARED_PATHS = old
