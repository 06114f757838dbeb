"""The exact answers' catalog has a ceiling (`MAX_FACTS`, docs/answers.md): a graph past it gets no
catalog, and the Kùzu layout finds that out from a count, without reading the facts' rows (at 10^6
triples the rows took seconds to read and were then thrown away), and link questions are still answered
from the graph there. Real Kùzu, the demo graph."""

from __future__ import annotations

from kgqa.answering import catalog as catalog_mod
from kgqa.answering.catalog import CatalogCache, read_catalog
from kgqa.answering.connections import connection_by_labels
from kgqa.config import RetrievalParams


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


def _coauthors(store) -> tuple[str, str, str]:
    """A paper of the demo graph and two of its authors (labels), read from the graph."""
    rows = store.query(
        "MATCH (a:Entity)<-[:Triple {predicate: 'author'}]-(p:Entity)-[:Triple {predicate: 'author'}]->(b:Entity) "
        "WHERE a.id < b.id RETURN p.label, a.label, b.label ORDER BY p.id, a.id, b.id LIMIT 1"
    )[1]
    return rows[0][0], rows[0][1], rows[0][2]


def test_past_the_ceiling_a_link_question_is_linked_by_the_labels_it_writes(demo_workspace, monkeypatch):
    """Without a catalog (the graph past its ceiling) "how is A connected to B" is still answered from
    the graph: the names are found among the entity labels the question writes, and the answer is the
    one the catalog's linker gives (same sentence, same paths)."""
    ws = demo_workspace
    title, first, second = _coauthors(ws.store)
    question = f"How is {first} connected to {second}?"
    with_catalog = ws.ask(question)
    assert with_catalog.result and with_catalog.result["operation"] == "relationship"
    monkeypatch.setattr(catalog_mod, "MAX_FACTS", 1)
    monkeypatch.setattr(ws.facts, "catalogs", CatalogCache())  # a workspace that has read no catalog yet
    without = ws.ask(question)
    assert ws.facts.catalogs.get(ws.store, "Paper") is None  # no catalog: past the ceiling
    assert without.answer == with_catalog.answer and without.result == with_catalog.result
    assert f"'{title}'" in without.answer and "through one other entity" in without.answer
    assert [[title, "author", first], [title, "author", second]] in without.result["paths"]
    typed = ws.ask(f"how is {first.lower()} related to {second.lower()}")  # typed as people type
    assert typed.result and typed.result["paths"] == without.result["paths"]
    # no link asked, or only one name written: the retrieved facts' answer, as before
    assert connection_by_labels(f"Which papers did {first} write?", ws.store, ["Paper"]) is None
    assert connection_by_labels(f"How is {first} connected to nobody at all?", ws.store, ["Paper"]) is None


def test_past_the_ceiling_a_count_is_taken_over_the_whole_graph(demo_workspace, monkeypatch):
    """Without a catalog a one-hop count ("how many papers did X write") is counted along the relation
    over the whole graph, not over the hubs retrieval keeps (here only two)."""
    ws = demo_workspace
    name, papers = ws.store.query(
        "MATCH (p:Entity)-[:Triple {predicate: 'author'}]->(a:Entity) "
        "RETURN a.label, count(DISTINCT p) AS n ORDER BY n DESC, a.label LIMIT 1"
    )[1][0]
    assert papers >= 3  # more than the two hubs kept below
    monkeypatch.setattr(catalog_mod, "MAX_FACTS", 1)
    monkeypatch.setattr(ws.facts, "catalogs", CatalogCache())
    for question in (f"How many papers did {name} write?", f"how many papers did {name.lower()} write"):
        answer = ws.ask(question, RetrievalParams(strategy="direct", hubs_to_keep=2))
        assert answer.strategy == "chain" and answer.result and answer.result["value"] == papers, answer.answer
        assert len(answer.sources) == papers


def test_past_the_ceiling_an_order_or_groups_cover_the_whole_graph(demo_workspace, monkeypatch):
    """Without a catalog "which papers did X write, newest first" and "how many papers did X write per
    year" follow the relation to every paper and read each one's year: all of them, in the graph's
    order and counts, not the hubs retrieval keeps."""
    ws = demo_workspace
    rows = ws.store.query(
        "MATCH (p:Entity)-[:Triple {predicate: 'author'}]->(a:Entity), (p)-[:Triple {predicate: 'publication year'}]->(y:Entity) "
        "WITH a, collect({title: p.label, year: y.label}) AS papers WHERE size(papers) >= 3 "
        "RETURN a.label, papers ORDER BY size(papers) DESC, a.label LIMIT 1"
    )[1]
    name, papers = rows[0]
    years: dict[str, int] = {}
    for p in papers:
        years[p["year"]] = years.get(p["year"], 0) + 1
    monkeypatch.setattr(catalog_mod, "MAX_FACTS", 1)
    monkeypatch.setattr(ws.facts, "catalogs", CatalogCache())
    few = RetrievalParams(strategy="direct", hubs_to_keep=2)
    ranked = ws.ask(f"Which papers did {name} write? Rank them in descending order of their publication year.", few)
    assert ranked.strategy == "chain" and ranked.result["operation"] == "rank", ranked.answer
    assert sorted(ranked.result["items"]) == sorted(p["title"] for p in papers)
    assert [ranked.result["groups"][t] for t in ranked.result["items"]] == sorted(
        (p["year"] for p in papers), reverse=True
    )
    assert "in descending order of publication year: 1. '" in ranked.answer
    grouped = ws.ask(f"how many papers did {name.lower()} write per year", few)
    assert grouped.strategy == "chain" and grouped.result["operation"] == "group", grouped.answer
    assert grouped.result["groups"] == years and grouped.result["value"] == len(papers)
    assert all(f"{y}: {n} [" in grouped.answer for y, n in years.items())


def test_past_the_ceiling_a_year_narrows_the_chain(demo_workspace, monkeypatch):
    """Without a catalog "which papers did X write in 2019" follows the relation and keeps the papers
    stating that year (a literal value the question names), over the whole graph."""
    ws = demo_workspace
    rows = ws.store.query(
        "MATCH (p:Entity)-[:Triple {predicate: 'author'}]->(a:Entity), (p)-[:Triple {predicate: 'publication year'}]->(y:Entity) "
        "WITH a, collect({title: p.label, year: y.label}) AS papers WHERE size(papers) >= 2 "
        "RETURN a.label, papers ORDER BY size(papers) DESC, a.label LIMIT 1"
    )[1]
    name, papers = rows[0]
    year = papers[0]["year"]
    monkeypatch.setattr(catalog_mod, "MAX_FACTS", 1)
    monkeypatch.setattr(ws.facts, "catalogs", CatalogCache())
    answer = ws.ask(f"which papers did {name.lower()} write in {year}", RetrievalParams(strategy="direct"))
    assert answer.strategy == "chain", answer.answer
    assert set(answer.result["items"]) == {p["title"] for p in papers if p["year"] == year}, answer.answer
    assert f"publication year {year}" in answer.answer


def test_past_the_ceiling_years_after_one_keep_the_chain_ends(demo_workspace, monkeypatch):
    """Without a catalog "which papers did X write after Y" (and "before Y") follows the relation and keeps
    the papers whose year is past the bound, read for every end; none there is said so."""
    ws = demo_workspace
    rows = ws.store.query(
        "MATCH (p:Entity)-[:Triple {predicate: 'author'}]->(a:Entity), (p)-[:Triple {predicate: 'publication year'}]->(y:Entity) "
        "WITH a, collect({title: p.label, year: CAST(y.label AS INT64)}) AS papers WHERE size(papers) >= 2 "
        "RETURN a.label, papers ORDER BY size(papers) DESC, a.label LIMIT 1"
    )[1]
    name, papers = rows[0]
    edge = min(p["year"] for p in papers)
    monkeypatch.setattr(catalog_mod, "MAX_FACTS", 1)
    monkeypatch.setattr(ws.facts, "catalogs", CatalogCache())
    direct = RetrievalParams(strategy="direct")
    after = ws.ask(f"which papers did {name.lower()} write after {edge}", direct)
    assert after.strategy == "chain", after.answer
    assert set(after.result["items"]) == {p["title"] for p in papers if p["year"] > edge}, after.answer
    assert f"(those dated after {edge})" in after.answer
    none = ws.ask(f"which papers did {name.lower()} write before {edge}", direct)
    assert none.result["items"] == [] and none.answer.startswith("None of the"), none.answer
