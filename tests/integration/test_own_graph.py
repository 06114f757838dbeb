"""HubLink on a property graph the user built with plain Cypher (no HubLink loader): the graph is read
in place through the mapping inferred from the catalog; index build, ask, the user's own writes with
`index update`, `index drop` (exactly the user's tables and rows remain), the CLI, and `register(conn)`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import kuzu
import pytest

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.errors import InputError
from kgqa.graph.layout import UNMARKED_NOTE, layout_of
from kgqa.graph.mapping import MappingFile, readable
from kgqa.graph.property_layout import PropertyLayout, use_mapping

DDL = [
    "CREATE NODE TABLE Paper(id STRING PRIMARY KEY, title STRING, year INT64, doi STRING)",
    "CREATE NODE TABLE Author(id STRING PRIMARY KEY, name STRING)",
    "CREATE NODE TABLE Venue(id STRING PRIMARY KEY, name STRING)",
    "CREATE REL TABLE WROTE(FROM Author TO Paper, position INT64)",
    "CREATE REL TABLE PUBLISHED_AT(FROM Paper TO Venue)",
]
PAPERS = [
    ("p1", "Recovering Service Boundaries from Call Graphs", 2019, "v1", ["a1", "a2"]),
    ("p2", "Architecture Decisions in Open Source Projects", 2019, "v1", ["a3"]),
    ("p3", "Energy Tactics for Mobile Applications", 2020, "v1", ["a1"]),
    ("p4", "Quantum Software Architecture Patterns", 2019, "v2", ["a4"]),
]
AUTHORS = {"a1": "Lena Hoffmeier", "a2": "Jonas Brettschneider", "a3": "Sanne de Vries", "a4": "Ravi Menon"}
VENUES = {"v1": "ICSA", "v2": "ECSA"}
WHO_WROTE = f"Who wrote '{PAPERS[0][1]}'?"
AUTHORS_OF = f"Who are the authors of the paper '{PAPERS[0][1]}'?"
AT_VENUE = "Which papers were published at ICSA in 2019?"


def make_graph(path: Path) -> None:
    """The user's graph: Cypher DDL and CREATE statements only."""
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    for statement in DDL:
        conn.execute(statement)
    for vid, name in VENUES.items():
        conn.execute("CREATE (:Venue {id: $id, name: $name})", {"id": vid, "name": name})
    for aid, name in AUTHORS.items():
        conn.execute("CREATE (:Author {id: $id, name: $name})", {"id": aid, "name": name})
    for pid, title, year, venue, authors in PAPERS:
        conn.execute(
            "CREATE (:Paper {id: $id, title: $t, year: $y, doi: $doi})",
            {"id": pid, "t": title, "y": year, "doi": f"10.1000/{pid}"},
        )
        conn.execute(
            "MATCH (p:Paper {id: $p}), (v:Venue {id: $v}) CREATE (p)-[:PUBLISHED_AT]->(v)", {"p": pid, "v": venue}
        )
        for pos, aid in enumerate(authors, 1):
            conn.execute(
                "MATCH (a:Author {id: $a}), (p:Paper {id: $p}) CREATE (a)-[:WROTE {position: $n}]->(p)",
                {"a": aid, "p": pid, "n": pos},
            )
    conn.close()
    db.close()


def user_tables(path: Path) -> dict[str, list[str]]:
    """Every table of the database with all its rows (node properties; rel endpoints and properties)."""
    db = kuzu.Database(str(path), read_only=True)
    conn = kuzu.Connection(db)
    out: dict[str, list[str]] = {}
    for name, kind in conn.execute("CALL show_tables() RETURN name, type").get_all():
        if kind == "NODE":
            rows = conn.execute(f"MATCH (n:`{name}`) RETURN n").get_all()
            out[name] = sorted(repr({k: v for k, v in r[0].items() if k != "_id"}) for r in rows)
        else:
            rows = conn.execute(f"MATCH (a)-[r:`{name}`]->(b) RETURN a.id, b.id, r").get_all()
            out[name] = sorted(repr((a, b, {k: v for k, v in r.items() if not k.startswith("_")})) for a, b, r in rows)
    conn.close()
    db.close()
    return out


def hub_triples(ws: Workspace, hub_id: str) -> set[str]:
    """The canonical triples of every stored path of a hub."""
    rows = ws.store.run("indexing/path_ends", {"ids": [hub_id]})
    from kgqa.vectorstores.base import decode_triples

    return {t.canonical for _, triples in rows for t in decode_triples(triples)}


@pytest.fixture
def own_graph(tmp_path):
    path = tmp_path / "my.kuzu"
    make_graph(path)
    return path


def test_index_ask_update_and_drop_on_the_users_own_graph(own_graph, embedder):
    before = user_tables(own_graph)
    ws = Workspace(Settings(db_path=own_graph), embedder=embedder)
    try:
        assert isinstance(layout_of(ws.store), PropertyLayout)
        report = ws.build_index(IndexParams(hub_types=("Paper",)))
        assert sorted(report.rebuilt_ids) == ["p1", "p2", "p3", "p4"]

        # "Who wrote ...?": the paper's hub is found and holds its authors (read backwards from WROTE);
        # the offline answer layer does not yet phrase a question whose only attribute is a verb
        who = ws.ask(WHO_WROTE, RetrievalParams(topic_entity="p1"))
        assert who.hubs[0].hub_id == "p1"
        title = PAPERS[0][1]
        assert {f"(p1:{title}, author, a1:Lena Hoffmeier)", f"(p1:{title}, author, a2:Jonas Brettschneider)"} <= (
            hub_triples(ws, "p1")
        )
        authors = ws.ask(AUTHORS_OF, RetrievalParams(topic_entity="p1"))
        assert sorted(authors.result["items"]) == ["Jonas Brettschneider", "Lena Hoffmeier"]
        assert authors.sources[0].hub_id == "p1"

        venue = ws.ask(AT_VENUE, RetrievalParams(strategy="direct"))
        cited = {s.hub_id for s in venue.sources}
        assert cited == {"p1", "p2"}, venue.answer  # p3 is from 2020, p4 from ECSA
        assert f"(p1:{title}, published at, v1:ICSA)" in venue.triples
        assert f"(p1:{title}, year, 2019)" in venue.triples
    finally:
        ws.close()

    # the user's own write, through their own connection
    db = kuzu.Database(str(own_graph))
    conn = kuzu.Connection(db)
    conn.execute("CREATE (:Author {id: 'a5', name: 'Mara Okafor'})")
    conn.execute("MATCH (a:Author {id: 'a5'}), (p:Paper {id: 'p1'}) CREATE (a)-[:WROTE {position: 3}]->(p)")
    conn.close()
    db.close()

    ws = Workspace(Settings(db_path=own_graph), embedder=embedder)
    try:
        report = ws.update_index()
        assert report.rebuilt_ids == ["p1"] or sorted(report.rebuilt_ids) == ["p1", "p3"]
        assert "p2" not in report.rebuilt_ids and "p4" not in report.rebuilt_ids
        authors = ws.ask(AUTHORS_OF, RetrievalParams(topic_entity="p1"))
        assert sorted(authors.result["items"]) == ["Jonas Brettschneider", "Lena Hoffmeier", "Mara Okafor"]
        ws.drop_index()
    finally:
        ws.close()

    after = user_tables(own_graph)
    del after["Author"][after["Author"].index(repr({"_label": "Author", "id": "a5", "name": "Mara Okafor"}))]
    after["WROTE"] = [r for r in after["WROTE"] if not r.startswith("('a5'")]
    assert after == before


def test_cli_on_a_database_hublink_never_loaded(own_graph, tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}

    def kgqa(*args: str) -> subprocess.CompletedProcess:
        cmd = [sys.executable, "-m", "kgqa_cli", "--db", str(own_graph), *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)

    described = kgqa("graph", "describe")
    assert described.returncode == 0, described.stderr
    assert "node Paper: entities of type Paper, id id, label title" in described.stdout
    assert "rel PUBLISHED_AT: predicate 'published at' (Paper->Venue)" in described.stdout

    triples = tmp_path / "more.csv"
    triples.write_text("subject,predicate,object\np1,cites,p2\n", encoding="utf-8")
    refused = kgqa("load", str(triples))  # HubLink never writes the user's graph (nor makes its own beside it)
    assert refused.returncode != 0 and "HubLink never writes" in refused.stderr
    assert sorted(user_tables(own_graph)) == ["Author", "PUBLISHED_AT", "Paper", "Venue", "WROTE"]

    unknown = kgqa("index", "build", "--hub-type", "Article")
    assert unknown.returncode != 0
    assert "unknown hub type Article" in unknown.stderr and "Author, Paper, Venue" in unknown.stderr

    mapping = tmp_path / "kgqa.toml"
    mapping.write_text('[tables.Paper]\nexclude = ["doi"]\n[tables.Paper.predicates]\nyear = "publication year"\n')
    built = kgqa("index", "build", "--hub-type", "Paper", "--mapping", str(mapping))
    assert built.returncode == 0, built.stderr
    assert "rebuilt 4 of 4 hubs" in built.stdout
    described = kgqa("graph", "describe")
    assert "year -> fact 'publication year'" in described.stdout and "doi" not in described.stdout
    # the seed-paper retrievers' label index links to HubLink's Entity table: refused, naming the retriever
    for args in (("index", "build", "--retriever", "difar"), ("ask", AT_VENUE, "--retriever", "simgrag")):
        refused = kgqa(*args)
        assert refused.returncode == 2, refused.stderr
        assert f"the {args[3]} retriever needs HubLink's triple layout" in refused.stderr

    # the user's own write leaves no dirty mark: --dirty checks every hub by content hash, and says so
    db = kuzu.Database(str(own_graph))
    conn = kuzu.Connection(db)
    conn.execute("MATCH (p:Paper {id: 'p2'}) SET p.year = 2021")
    conn.close()
    db.close()
    updated = kgqa("index", "update", "--dirty")
    assert updated.returncode == 0, updated.stderr
    assert f"note: {UNMARKED_NOTE}" in updated.stdout
    assert "rebuilt 1 of 4 hubs" in updated.stdout, updated.stdout
    dropped = kgqa("index", "drop", "--yes")
    assert dropped.returncode == 0, dropped.stderr
    assert sorted(user_tables(own_graph)) == ["Author", "PUBLISHED_AT", "Paper", "Venue", "WROTE"]


def test_users_connection_answers_from_the_property_graph(own_graph, embedder):
    from kgqa.frontends import kuzu as kgqa_kuzu

    ws = Workspace(Settings(db_path=own_graph), embedder=embedder)
    ws.build_index(IndexParams(hub_types=("Paper",)))
    ws.close()
    db = kuzu.Database(str(own_graph))
    conn = kuzu.Connection(db)
    service = kgqa_kuzu.register(conn, use_service=False)
    try:
        res = conn.execute(
            "UNWIND kgqa_hubs($q, 2) AS h MATCH (p:Paper {id: h.hub_id}) RETURN p.id, p.title ORDER BY p.id",
            {"q": AT_VENUE},
        )
        assert res.get_all() == [["p1", PAPERS[0][1]], ["p2", PAPERS[1][1]]]
        answer = conn.execute("RETURN kgqa_answer($q)", {"q": AT_VENUE}).get_next()[0]
        assert PAPERS[0][1] in answer and PAPERS[1][1] in answer and PAPERS[2][1] not in answer
    finally:
        service.close()
        conn.close()
        db.close()


def test_mapping_inference_and_bad_input(tmp_path):
    from kgqa_procedures.udfs import UdfContext

    path = tmp_path / "odd.kuzu"
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    conn.execute(
        "CREATE NODE TABLE Thing(code INT64 PRIMARY KEY, publicationYear INT64, meta MAP(STRING, INT64), raw BLOB)"
    )
    conn.execute("CREATE NODE TABLE kgqa_own(id STRING PRIMARY KEY)")
    conn.execute("CREATE (:Thing {code: 7, publicationYear: 2021})")
    conn.close()
    db.close()
    from kgqa.graph.store import GraphStore

    with GraphStore(path) as store:
        layout = layout_of(store)
        assert isinstance(layout, PropertyLayout)
        lines = layout.mapping.describe()
        assert "  publicationYear -> fact 'publication year'" in lines
        warnings = [ln for ln in lines if ln.startswith("warning:")]
        assert len(warnings) == 3  # the MAP, the BLOB and the reserved prefix, one line each
        facts = layout.out_edges(["7"])
        assert [t.canonical for t in facts] == ["(7, publication year, 2021)"]
        with pytest.raises(InputError, match="node tables are Thing"):
            layout.hub_root_candidates(UdfContext(frozenset({"Paper"})))
        with pytest.raises(Exception, match="not a usable property"):
            use_mapping(store, MappingFile.from_dict({"tables": {"Thing": {"label": "nope"}}}))
    # a user's table named like an old HubLink table (`Hub`) is an ordinary type now; one in the
    # reserved kgqa_ prefix named like HubLink's own is skipped, and a build refuses (it would write there)
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    conn.execute("CREATE NODE TABLE Hub(id STRING PRIMARY KEY, name STRING)")
    conn.execute("CREATE NODE TABLE kgqa_Hub(id STRING PRIMARY KEY, name STRING)")
    conn.close()
    db.close()
    with GraphStore(path) as store:
        layout = layout_of(store)
        assert "Hub" in layout.mapping.nodes
        assert "table Hub skipped" not in layout.mapping.describe()
        assert "warning: table kgqa_Hub skipped: HubLink's own tables use this name" in layout.mapping.describe()
        with pytest.raises(InputError, match=r"named like HubLink's own \(kgqa_Hub\)"):
            layout.hub_root_candidates(UdfContext(frozenset({"Thing"})))
    assert readable("PUBLISHED_AT") == "published at"
    assert readable("publicationYear") == "publication year"


def test_every_read_of_the_property_layout(own_graph):
    """Each method of the protocol on the user's tables (every propgraph/*.cypher template runs)."""
    from kgqa_procedures.udfs import UdfContext

    from kgqa.graph.store import GraphStore

    with GraphStore(own_graph, read_only=True) as store:
        layout = layout_of(store)
        assert isinstance(layout, PropertyLayout)
        assert layout.entities_by_ids(["p1", "a1", "nope"]).keys() == {"p1", "a1"}
        assert [(e.id, exact) for e, exact in layout.entities_by_label("icsa", 5)] == [("v1", True)]
        into_v1 = {t.canonical for t in layout.in_edges(["v1"])}
        assert into_v1 == {f"(p{i}:{PAPERS[i - 1][1]}, published at, v1:ICSA)" for i in (1, 2, 3)}
        ctx = UdfContext(frozenset({"Paper"}))
        roots = layout.hub_root_candidates(ctx)
        assert sorted(r[0] for r in roots) == ["p1", "p2", "p3", "p4"]
        assert dict((r[0], r[2]) for r in roots)["p1"] == 5  # year, doi, published at, 2 authors (backwards)
        # read backwards into the hub type: the author's in-edges include the paper's "author" edge
        assert f"(p3:{PAPERS[2][1]}, author, a1:Lena Hoffmeier)" in {t.canonical for t in layout.in_edges(["a1"])}
        ctx.root_ids = {r[0] for r in roots}
        paths = list(layout.hub_paths(["p1"], True, 30, ctx))
        assert sorted(p[3][0] for p in paths) == ["author", "author", "doi", "published at", "year"]
        stats = layout.stats(10)
        # 4 papers x (year, doi), 4 published at, 5 wrote, the 5 read backwards as "author"
        assert (stats.entities - stats.literals, stats.triples) == (10, 8 + 4 + 5 + 5)
        assert set(layout.predicates()) == {"year", "doi", "published at", "wrote", "author"}
        assert not layout.is_empty()


def test_relation_chains_on_the_property_graph(own_graph, embedder):
    """Chain questions read the user's tables through the layout (schema, steps, topic linking)."""
    ws = Workspace(Settings(db_path=own_graph), embedder=embedder)
    try:
        ws.build_index(IndexParams(hub_types=("Paper",)))
        layout = layout_of(ws.store)
        schema = {(p, tuple(s), tuple(o), lit): n for p, s, o, lit, n in layout.predicate_schema()}
        assert schema[("author", ("Paper",), ("Author",), False)] == 5  # WROTE read backwards into the hub
        assert schema[("wrote", ("Author",), ("Paper",), False)] == 5
        assert schema[("year", ("Paper",), (), True)] == 4
        p1, p3 = layout.entities_by_ids(["p1", "p3"]).values()
        assert sorted(r[1] for r in layout.step([p1, p3], "author", 1, 100)) == ["a1", "a1", "a2"]
        assert sorted(r[1] for r in layout.step([p1], "published at", 1, 100)) == ["v1"]
        back = layout.step(list(layout.entities_by_ids(["a1"]).values()), "author", -1, 100)
        assert sorted((r[0], r[1]) for r in back) == [("a1", "p1"), ("a1", "p3")]
        assert len(layout.step([p1, p3], "author", 1, 2)) == 2  # the cap
        (year,) = [r for r in layout.step([p1], "year", 1, 10)]
        literal = next(t.object for t in layout.out_edges(["p1"]) if t.predicate == "year")
        assert (year[1], year[2], year[3]) == (literal.id, "2019", True)
        same_year = layout.step([literal], "year", -1, 10)  # back from a property value
        assert sorted(r[1] for r in same_year) == ["p1", "p2", "p4"]
        named = [e.id for e in layout.labels_in_text("papers by lena hoffmeier at icsa", 3, 10)]
        assert named == ["a1", "v1"]

        shared = ws.ask(f"Which papers share an author with '{PAPERS[0][1]}'?", RetrievalParams())
        assert shared.result["items"] == [PAPERS[2][1]], shared.answer  # p3: Lena Hoffmeier wrote both
        assert [s.hub_id for s in shared.sources] == ["p3"]
        wrote = ws.ask("Which papers did Lena Hoffmeier write?", RetrievalParams())
        assert sorted(wrote.result["items"]) == sorted([PAPERS[0][1], PAPERS[2][1]]), wrote.answer
    finally:
        ws.close()


def test_explore_reads_on_the_property_graph(own_graph):
    """Neighbours, search, paths and schema through the layout; what it cannot answer is a typed refusal."""
    from kgqa.graph import explore
    from kgqa.graph.store import GraphStore

    title = PAPERS[0][1]
    with GraphStore(own_graph, read_only=True) as store:
        page = explore.neighbours(store, "p1", limit=3)
        assert page.total == 5 and page.more and [n.direction for n in page.neighbours] == ["out"] * 3
        assert ("out", "published at", 1) in page.counts
        rest = explore.neighbours(store, "p1", offset=3, limit=3)
        assert {n.node.id for n in rest.neighbours} | {n.node.id for n in page.neighbours} >= {"v1"}
        into = explore.neighbours(store, "v1", predicate="published at", direction="in")
        assert sorted(n.node.id for n in into.neighbours) == ["p1", "p2", "p3"] and not into.more
        assert [e.id for e in explore.search_entities(store, "icsa")] == ["v1"]
        assert explore.search_entities(store, "csa", type_="Paper") == []
        assert [e.id for e in explore.search_entities(store, "csa", type_="Venue", limit=5)] == ["v1", "v2"]
        assert [e.id for e in explore.search_entities(store, "a2")] == ["a2"]  # by id
        found = explore.shortest_paths(store, "a2", "p3", max_depth=3)
        assert found.depth == 3  # a2 wrote p1, whose co-author a1 wrote p3
        assert {t.canonical for t in found.paths[0]} >= {f"(a2:Jonas Brettschneider, wrote, p1:{title})"}
        assert explore.shortest_paths(store, "a4", "p1", max_depth=2).depth is None
        s = explore.schema(store)
        assert dict(s.types) == {"Paper": 4, "Author": 4, "Venue": 2} and dict(s.predicates)["wrote"] == 5
        wrote = [(t.subject.id, t.object.id) for t in explore.triples_of_predicate(store, "wrote", limit=3)]
        assert wrote == [("a1", "p1"), ("a1", "p3"), ("a2", "p1")]
        rest = [(t.subject.id, t.object.id) for t in explore.triples_of_predicate(store, "wrote", offset=3)]
        assert rest == [("a3", "p2"), ("a4", "p4")]
        years = [(t.subject.id, t.object.label) for t in explore.triples_of_predicate(store, "year", offset=1, limit=2)]
        assert years == [("p2", "2019"), ("p3", "2020")]
        assert explore.triples_of_predicate(store, "no such predicate") == []
        with pytest.raises(InputError, match="give a text"):
            explore.search_entities(store, "", type_="Paper")


def test_a_chain_step_from_many_nodes_reads_what_the_in_list_reads(tmp_path, monkeypatch):
    """A chain step from more than IN_LIST_MAX nodes of a user's table unwinds and joins their keys
    (propgraph/*_capped_many) instead of `IN $keys`; both reads return the same rows, both directions."""
    from kgqa.graph import layout as layouts
    from kgqa.graph.store import GraphStore
    from kgqa.types import Entity

    path = tmp_path / "many.kuzu"
    make_graph(path)
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    for i in range(150):
        conn.execute("CREATE (:Paper {id: $id, title: $t, year: 2021})", {"id": f"q{i}", "t": f"Paper {i}"})
        conn.execute("MATCH (p:Paper {id: $p}), (v:Venue {id: 'v1'}) CREATE (p)-[:PUBLISHED_AT]->(v)", {"p": f"q{i}"})
        conn.execute(
            "MATCH (a:Author {id: 'a1'}), (p:Paper {id: $p}) CREATE (a)-[:WROTE {position: 1}]->(p)", {"p": f"q{i}"}
        )
    conn.close()
    db.close()
    papers = [Entity(f"q{i}") for i in range(150)]
    with GraphStore(path, read_only=True) as store:
        read = layout_of(store)

        def rows(limit: int) -> tuple[list, list]:
            monkeypatch.setattr(layouts, "IN_LIST_MAX", limit)
            out = sorted(map(repr, read.step(papers, "published at", 1, 10_000)))
            back = sorted(map(repr, read.step(papers, "wrote", -1, 10_000)))
            return out, back

        joined, listed = rows(100), rows(100_000)
    assert joined == listed and len(joined[0]) == 150 and len(joined[1]) == 150
