"""Keeping the index in step with a changing graph: fixed updates (path-hash sets compared per hub)
and dynamic ones (hubs marked dirty in the transaction of the change, `index update --dirty`).
Each change is checked against the full update: the dirty update must rebuild exactly the hubs a
full update would, and leave an index a full update finds nothing to change in."""

from __future__ import annotations

import pytest
from index_checks import assert_consistent, snapshot

from kgqa.api import Workspace
from kgqa.config import ENUMERATED_ROOTS, IndexParams, RetrievalParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.graph.edits import triple_record
from kgqa.types import synthetic_literal_id

pytestmark = pytest.mark.slow

SMALL = (
    "subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal\n"
    "P1,author,A1,Hubs for Graph QA,Paper,Ada Lovelace,Person,false\n"
    "A1,affiliation,O1,Ada Lovelace,Person,Analytical Society,Organisation,false\n"
    "P1,publication year,2019,Hubs for Graph QA,Paper,,,true\n"
    "P2,author,A1,Paths and Hashes,Paper,Ada Lovelace,Person,false\n"
    "P2,cites,P1,Paths and Hashes,Paper,Hubs for Graph QA,Paper,false\n"
    "P3,author,A3,Graphs Change,Paper,Grace Hopper,Person,false\n"
    "P3,publication year,2021,Graphs Change,Paper,,,true\n"
)


@pytest.fixture
def small(tmp_path, embedder):
    (tmp_path / "small.csv").write_text(SMALL, encoding="utf-8")
    ws = Workspace.init(Settings(db_path=tmp_path / "s.kuzu"), embedder=embedder)
    ws.load(tmp_path / "small.csv")
    yield ws
    ws.close()


def dirty_equals_full(ws: Workspace, expected_marks: set[str] | None = None) -> list[str]:
    """The marks are what we expect; the dirty update rebuilds what a full update would; after it a
    full update has nothing to do and the marks are gone. Returns the rebuilt hub ids."""
    marks = set(ws.dirty_hubs())
    if expected_marks is not None:
        assert marks == expected_marks
    full = ws.update_index(dry_run=True)
    dirty = ws.update_index(dirty=True)
    assert dirty.mode == "dirty" and sorted(dirty.rebuilt_ids) == sorted(full.rebuilt_ids)
    assert sorted(dirty.removed_ids) == sorted(full.removed_ids) if full.hubs_removed else not dirty.removed_ids
    assert set(dirty.rebuilt_ids) <= marks
    assert ws.dirty_hubs() == []
    assert_consistent(ws)
    return dirty.rebuilt_ids


def test_marks_follow_paths_backward_to_the_hub_roots(small):
    ws = small
    assert ws.add_triples([triple_record("O1", "located in", "Germany", literal=True)]).hubs_marked == 0  # no index yet
    ws.build_index(IndexParams(hub_types=("Paper",)))
    assert ws.dirty_hubs() == [] and ws.index_status().dirty_hubs == 0

    # a triple deep in the hubs of P1 and P2 (P1 -> A1 -> O1 and P2 -> A1 -> O1)
    report = ws.add_triples([triple_record("O1", "founded", "1812", literal=True)])
    assert report.triples_added == 1 and report.hubs_marked == 2
    assert ws.index_status().dirty_hubs == 2
    assert dirty_equals_full(ws, {"P1", "P2"}) == ["P1", "P2"]

    # a triple of a root: that hub only (P2's path to P1 ends at P1)
    ws.add_triples([triple_record("P1", "keyword", "hubs", literal=True)])
    assert dirty_equals_full(ws, {"P1"}) == ["P1"]

    # a root's label: its own hub, and P2 whose boundary path ends at it
    ws.add_triples([triple_record("P2", "cites", "P1", object_label="Hubs for Graph Question Answering")])
    assert dirty_equals_full(ws, {"P1", "P2"}) == ["P1", "P2"]

    # the same triple again: nothing changes, nothing is marked
    assert ws.add_triples([triple_record("P2", "cites", "P1")]).hubs_marked == 0

    # a deleted triple: its subject's hub; the year literal is shared, but only P1's path changes
    deleted = ws.delete_triples([("P1", "publication year", synthetic_literal_id("2019"))])
    assert deleted.deleted == 1 and deleted.not_found == 0
    assert dirty_equals_full(ws, {"P1"}) == ["P1"]

    # a new root: added; an entity that becomes a root: added, and the hubs through it rebuilt
    ws.add_triples([triple_record("P4", "author", "A3", subject_label="New Paper", subject_types=["Paper"])])
    assert dirty_equals_full(ws, {"P4"}) == ["P4"]
    # a root that loses its only triple has no path left: its hub goes
    ws.delete_triples([("P4", "author", "A3")])
    assert dirty_equals_full(ws, {"P4"}) == [] and "P4" not in ws.vstore.signatures()
    ws.add_triples([triple_record("A1", "affiliation", "O1", subject_types=["Paper"])])
    assert dirty_equals_full(ws, {"A1", "P1", "P2"}) == ["A1", "P1", "P2"]
    assert ws.update_index().nothing_to_do


def test_a_root_that_disappears_is_removed(small):
    ws = small
    ws.build_index(IndexParams(hub_types=(), min_out_degree=2))  # P1, P2, P3 have out-degree 2
    assert set(ws.vstore.signatures()) == {"P1", "P2", "P3"}
    before = ws.index_status().counts
    report = ws.delete_triples([("P3", "publication year", synthetic_literal_id("2021"))])
    assert report.hubs_marked == 1
    update = ws.update_index(dirty=True)
    assert update.removed_ids == ["P3"] and update.hubs_rebuilt == 0
    after = ws.index_status().counts
    assert update.vectors_deleted == before.vectors - after.vectors > 0
    assert_consistent(ws)


def test_fixed_update_uses_the_stored_parameters(tmp_path, embedder):
    """`index update` without --dirty after changes made behind the trackers' back (no marks)."""
    ws = Workspace.init(Settings(db_path=tmp_path / "t.kuzu"), embedder=embedder)
    ws.load(demo_graph_path())
    params = IndexParams(hub_types=("Paper",), start_ids=("V01",), max_indexing_depth=1, hubs_per_batch=4)
    built = ws.build_index(params)
    assert 0 < built.hubs_rebuilt < 35
    info = ws.index_status().info
    ws.store.run(
        "update/delete_triples", {"rows": [{"s": "P01", "p": "keyword", "o": synthetic_literal_id("microservices")}]}
    )
    assert ws.dirty_hubs() == []
    assert ws.update_index(dirty=True).nothing_to_do  # nothing marked: a dirty update trusts the marks
    report = ws.update_index(hubs_per_batch=3)  # a fixed update compares every hub
    assert report.rebuilt_ids == ["P01"] and report.hubs_checked == built.hubs_rebuilt
    assert report.vectors_written > 0 and report.vectors_deleted > 0
    assert ws.index_status().info.params == info.params
    assert_consistent(ws)
    ws.close()


def test_traversal_index_dirty_update_finds_new_levels(tmp_path, embedder):
    """An index built by traversal from a start entity: a new paper linked to an indexed one is
    found through the stored paths of the hubs that were not rebuilt."""
    ws = Workspace.init(Settings(db_path=tmp_path / "v.kuzu"), embedder=embedder)
    ws.load(demo_graph_path())
    ws.build_index(IndexParams(hub_types=("Paper",), start_ids=("V02",), max_indexing_depth=2))
    indexed = set(ws.vstore.signatures())
    ws.add_triples([triple_record("P99", "cites", "P01", subject_label="A Paper Citing P01", subject_types=["Paper"])])
    ws.add_triples([triple_record("C004", "evaluation method", "M07")])
    rebuilt = dirty_equals_full(ws)
    assert set(ws.vstore.signatures()) - indexed <= {"P99"}
    assert ("P04" in indexed) == ("P04" in rebuilt)
    ws.close()


def test_update_scenario_two_papers_changed(tmp_path, embedder):
    """The README scenario on the demo graph: change a publication year and add an evaluation
    method of two papers; the update rebuilds exactly those two hubs and `ask` sees the change."""
    ws = Workspace.init(Settings(db_path=tmp_path / "d.kuzu"), embedder=embedder)
    ws.load(demo_graph_path())
    ws.build_index(IndexParams(hub_types=("Paper",)))
    before = snapshot(ws)
    ws.delete_triples([("P03", "publication year", synthetic_literal_id("2019"))])
    ws.add_triples([triple_record("P03", "publication year", "2024", literal=True)])
    ws.add_triples([triple_record("C002", "evaluation method", "M07")])
    assert ws.index_status().dirty_hubs == 2
    queries: list[str] = []
    ws.store.tracer = lambda name, params, seconds: queries.append(name)
    report = ws.update_index(dirty=True, hubs_per_batch=2)  # [P01, P02], [P03, P04], ... hold one mark each
    ws.store.tracer = None
    assert report.rebuilt_ids == ["P02", "P03"] and report.hubs_removed == 0 and report.hubs_checked == 2
    # the marked hubs are enumerated and written as one batch, not one batch per mark (each batch's
    # queries cost a scan of the graph and the index: 10^6 triples, 80 marks: 18 s, was about 4 min)
    assert queries.count("indexing/enumerate_hub_paths") == 1 and queries.count("indexing/delete_hub_vectors") == 1
    assert report.vectors_written > 0 and report.vectors_deleted > 0
    after = snapshot(ws)
    changed = {h for h in before["hubs"] if before["hubs"][h] != after["hubs"].get(h)}
    assert changed == {"P02", "P03"}
    assert ws.update_index().nothing_to_do
    title = "A Decision Model for Selecting Message Brokers in Event-Driven Architectures"
    answer = ws.ask(f"In which year was '{title}' published?", RetrievalParams(topic_entity="P03", hubs_to_keep=5))
    assert f"(P03:{title}, publication year, 2024)" in answer.triples, answer.triples
    answer = ws.ask(
        "Which papers use simulation as evaluation method?", RetrievalParams(topic_entity="M07", hubs_to_keep=10)
    )
    assert any(t.startswith("(C002:") and t.endswith("evaluation method, M07:Simulation)") for t in answer.triples), (
        answer.triples
    )
    ws.close()


@pytest.mark.postgres
def test_dirty_update_of_a_pgvector_index(pg_database, tmp_path, embedder):
    """The same in Postgres: marks made with the pgvector index's criteria, exactly the two hubs
    rewritten (their stale paths and vectors deleted in the rewrite's transaction), and the result
    equal to a Kùzu index built from the changed graph."""
    db = tmp_path / "p.kuzu"
    pg = Workspace.init(Settings(db_path=db, store="pgvector", pg_dsn=pg_database), embedder=embedder)
    pg.load(demo_graph_path())
    pg.build_index(IndexParams(hub_types=("Paper",)))
    old_paths = {ph for h in pg.vstore.hub_records(["P02", "P03"]) for ph in (p.hash for p in h.paths)}
    pg.delete_triples([("P03", "publication year", synthetic_literal_id("2019"))])
    pg.add_triples([triple_record("P03", "publication year", "2024", literal=True)])
    pg.add_triples([triple_record("C002", "evaluation method", "M07")])
    assert pg.index_status().dirty_hubs == 2
    before = pg.index_status().counts
    report = pg.update_index(dirty=True)
    after = pg.index_status().counts
    assert report.rebuilt_ids == ["P02", "P03"] and report.vectors_deleted > 0
    assert after.vectors == before.vectors + report.vectors_written - report.vectors_deleted
    new_paths = {ph for h in pg.vstore.hub_records(["P02", "P03"]) for ph in (p.hash for p in h.paths)}
    assert old_paths - new_paths and not (old_paths - new_paths) & set(pg.vstore.paths(sorted(old_paths)))
    assert pg.update_index().nothing_to_do
    pg_signatures = pg.vstore.signatures()
    pg.close()
    with Workspace(Settings(db_path=db), embedder=embedder) as kz:  # the Kùzu store of the same (changed) graph
        kz.build_index(IndexParams(hub_types=("Paper",)))
        assert kz.vstore.signatures() == pg_signatures and kz.index_status().counts == after


def test_a_build_enumerates_many_roots_per_query_and_writes_hubs_per_batch(tmp_path, embedder):
    """Paths are enumerated for up to ENUMERATED_ROOTS roots per query (each query pays a fixed cost that
    grows with the graph), while the hubs are written `hubs_per_batch` per transaction as before."""
    ws = Workspace.init(Settings(db_path=tmp_path / "b.kuzu"), embedder=embedder)
    ws.load(demo_graph_path())
    queries: list[str] = []
    ws.store.tracer = lambda name, params, seconds: queries.append(name)
    report = ws.build_index(IndexParams(hub_types=("Paper",), hubs_per_batch=4))
    ws.store.tracer = None
    assert report.hubs_rebuilt < ENUMERATED_ROOTS and queries.count("indexing/enumerate_hub_paths") == 1
    assert queries.count("indexing/insert_hubs") == -(-report.hubs_rebuilt // 4) > 1
    assert_consistent(ws)
    ws.close()
