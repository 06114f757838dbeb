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
