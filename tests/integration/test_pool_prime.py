"""A service pool reads what answers read from the whole graph when it starts (the catalog of exact
answers, once for all its workspaces; the chain reader's schema; each text's hubs), so the first question
does not pay for it (issue 30: 9 s at 10^5 triples on a loaded machine)."""

from __future__ import annotations

import pytest
from serve_helpers import build_demo_db

import kgqa.answering.catalog as catalog
from kgqa.answering.catalog import Catalog
from kgqa.config import Settings
from kgqa.service.pool import WorkspacePool

pytestmark = pytest.mark.slow


def test_prime_reads_one_catalog_shared_by_every_workspace(tmp_path, embedder, monkeypatch):
    db = build_demo_db(tmp_path / "demo.kuzu", embedder)
    pool = WorkspacePool(Settings(db_path=db), workers=2)
    try:
        reads: list[str] = []
        real = catalog.read_catalog
        monkeypatch.setattr(
            catalog, "read_catalog", lambda store, hub_type: reads.append(hub_type) or real(store, hub_type)
        )
        pool.prime()
        assert reads == ["Paper"]  # read once, at start
        caches = {id(ws.facts.catalogs) for ws in pool._all}
        assert len(caches) == 1 and len(pool._all) == 2
        cat = pool.primary.facts.catalogs.get(pool.primary.store, "Paper")
        assert isinstance(cat, Catalog) and cat.linker is not None and len(cat.hubs) >= 10
        assert all(ws.facts.chains is not None and ws.facts.chains._reader is not None for ws in pool._all)
        # the graph's labels (questions without a topic), read at start and shared
        labels = {id(ws.facts.chains._labels) for ws in pool._all if ws.facts.chains is not None}
        assert len(labels) == 1 and pool.primary.facts.chains is not None
        assert pool.primary.facts.chains._labels is not None
        # the words of those labels (names written with a typo), read at start and shared too
        spellings = {id(ws.facts.chains._spelling) for ws in pool._all if ws.facts.chains is not None}
        assert len(spellings) == 1 and pool.primary.facts.chains._spelling is not None
        # each text's hubs in memory (the direct strategy's expansion), one copy for every workspace
        arrays = {id(ws.vstore.text_hub_index) for ws in pool._all}
        assert len(arrays) == 1 and pool.primary.vstore.text_hub_index is not None
        assert len({id(ws.vstore._counts) for ws in pool._all}) == 1  # the table sizes counted once, too
        answers = [
            pool.with_workspace(lambda ws: ws.ask("How many papers did Priya Raghunathan publish?")) for _ in range(2)
        ]
        assert reads == ["Paper"]  # no question read it again
        assert all("2" in a.answer and a.sources for a in answers)
    finally:
        pool.close()
