"""The exact answers' catalog has a ceiling (`MAX_FACTS`, docs/answers.md): a graph past it gets no
catalog, and the Kùzu layout finds that out from a count, without reading the facts' rows (at 10^6
triples the rows took seconds to read and were then thrown away). Real Kùzu, the demo graph."""

from __future__ import annotations

from kgqa.answering import catalog as catalog_mod
from kgqa.answering.catalog import read_catalog


def _traced(store) -> list[str]:
    names: list[str] = []
    store.tracer = lambda name, params, seconds: names.append(name)
    return names


def test_a_graph_past_the_ceiling_is_not_read(demo_workspace, monkeypatch):
    store = demo_workspace.store
    before = store.tracer
    try:
        names = _traced(store)
        cat = read_catalog(store, "Paper")
        assert cat is not None and cat.hubs  # the demo graph is under the ceiling: read whole
        assert names == ["answering/hub_fact_count", "answering/hub_facts"]
        one_hop = int(store.run("answering/hub_fact_count", {"hub_type": "Paper"})[0][0])
        monkeypatch.setattr(catalog_mod, "MAX_FACTS", one_hop)  # one hop out alone reaches it
        names.clear()
        assert read_catalog(store, "Paper") is None
        assert names == ["answering/hub_fact_count"]  # counted, never read
        monkeypatch.setattr(catalog_mod, "MAX_FACTS", one_hop + 1)  # two hops out take it past
        names.clear()
        assert read_catalog(store, "Paper") is None
        assert names == ["answering/hub_fact_count", "answering/hub_facts"]
    finally:
        store.tracer = before
