"""A super-node never fails the build (real Kùzu, real model): a hub with more paths than the cap is
indexed in part, with a deterministic choice that keeps every kind of path, one warning line, the rest
of the graph indexed in full, `index status` lists it, and questions about it are answered."""

from __future__ import annotations

import json
import time
from dataclasses import replace

from index_checks import assert_consistent
from serve_helpers import kgqa

from kgqa import deadline
from kgqa.answering.exact import EVIDENCE_MAX
from kgqa.config import IndexParams, RetrievalParams
from kgqa.errors import QuestionTimeoutError
from kgqa.indexing.paths import capped_paths
from kgqa.synthetic.super_node import super_node_records

CAP = 40
AUTHORS = 300


def _graph(ws, authors: int = AUTHORS) -> None:
    ws.add_triples(super_node_records(authors))


def test_a_hub_over_the_path_cap_is_indexed_in_part(workspace):
    _graph(workspace)
    params = IndexParams(hub_types=("Paper",), max_paths_per_hub=CAP)
    report = workspace.build_index(params)
    warnings = [n for n in report.notes if n.startswith("warning:")]
    assert len(warnings) == 1 and f"P1 ({AUTHORS + 2} paths)" in warnings[0] and f"cap of {CAP}" in warnings[0]
    hubs = {h.id: h for h in workspace.vstore.hub_records(["P1", "P2", "P3", "P4", "P5"])}
    assert set(hubs) == {"P1", "P2", "P3", "P4", "P5"}  # the rest of the graph is indexed in full
    assert len(hubs["P1"].paths) == CAP and all(len(hubs[f"P{p}"].paths) == 2 for p in range(2, 6))
    predicates = {t.predicate for p in hubs["P1"].paths for t in p.triples}
    assert predicates == {"author", "venue", "publication year"}  # every kind of path keeps some
    status = workspace.index_status()
    assert status.info.status == "complete" and status.info.stats["capped_hubs"] == {"P1": AUTHORS + 2}
    assert_consistent(workspace)  # the kept paths have all their texts, and no text is left unused
    first = sorted(p.hash for p in hubs["P1"].paths)

    again = workspace.build_index(params, rebuild=True)  # the same graph gives the same choice
    assert sorted(p.hash for p in workspace.vstore.hub_records(["P1"])[0].paths) == first
    assert again.hubs_rebuilt == 5

    answer = workspace.ask("Which venue published The Big Collaboration?")
    assert "Conference on Large Teams" in answer.answer


def test_capped_paths_keeps_each_predicate_and_is_order_free(workspace):
    _graph(workspace)
    workspace.build_index(IndexParams(hub_types=("Paper",), max_paths_per_hub=10_000))
    paths = list(workspace.vstore.hub_records(["P1"])[0].paths)
    chosen = capped_paths(paths, 5)
    assert capped_paths(list(reversed(paths)), 5) == chosen and len(chosen) == 5
    assert {t.predicate for p in chosen for t in p.triples} == {"author", "venue", "publication year"}


def test_index_status_lists_capped_hubs(workspace, tmp_path):
    _graph(workspace)
    workspace.build_index(IndexParams(hub_types=("Paper",), max_paths_per_hub=CAP))
    db = workspace.settings.db_path
    workspace.close()
    out = kgqa(db, "index", "status")
    assert out.returncode == 0 and f"P1 ({AUTHORS + 2} paths)" in out.stdout and "capped hubs" in out.stdout, out
    data = json.loads(kgqa(db, "index", "status", "--json").stdout)
    assert data["capped_hubs"] == {"P1": AUTHORS + 2}


def test_ask_on_an_interrupted_build_says_how_to_finish_it(workspace):
    """A build that stopped before its last step (no HNSW index, status 'building'): ask names the fix,
    never Kùzu's binder error about embedded_text_vec."""
    from dataclasses import replace

    import pytest

    from kgqa.errors import HubIndexError
    from kgqa.indexing.metadata import read_info, write_info

    _graph(workspace)
    workspace.build_index(IndexParams(hub_types=("Paper",)))
    write_info(workspace.vstore, replace(read_info(workspace.vstore), status="building"))
    workspace.store.load_extension("vector")
    workspace.store.query("CALL DROP_VECTOR_INDEX('kgqa_EmbeddedText', 'embedded_text_vec')")
    with pytest.raises(HubIndexError) as err:
        workspace.ask("Which venue published The Big Collaboration?")
    assert "not complete" in str(err.value) and "kgqa index update" in str(err.value)
    assert "embedded_text_vec" not in str(err.value)


BIG = 3_000
#: What one question may run past its budget: the database query or model call running at the deadline.
MARGIN_S = 3.0


def test_questions_about_a_super_node_are_bounded_and_hold_the_budget(workspace, monkeypatch):
    """Questions about a hub with 3,000 authors (200 paths indexed): the answers count and list them all in
    their result while the sentence writes 100 and the evidence stays bounded; the budget is checked
    inside the long loops (not only between hubs); a small budget gives an answer or a clear timeout,
    never more than a small margin late."""
    _graph(workspace, BIG)
    workspace.build_index(IndexParams(hub_types=("Paper",), max_paths_per_hub=200))

    where: list[str] = []
    check = deadline.check
    monkeypatch.setattr(deadline, "check", lambda at="": (where.append(at), check(at))[1])
    listed = workspace.ask("Who are the authors of The Big Collaboration?")
    monkeypatch.undo()
    assert len(listed.result["items"]) == BIG and "and 2,900 more" in listed.answer
    cited = EVIDENCE_MAX + RetrievalParams().max_output_triples  # the hub's first values, and the retrieved facts
    assert len(listed.answer) < 5_000 and len(listed.triples) <= cited
    assert {"choosing a hub's triples", "reading the graph's facts", "hub scoring"} <= set(where), set(where)
    counted = workspace.ask("How many authors does The Big Collaboration have?")
    assert counted.result["value"] == BIG and len(counted.triples) <= cited

    workspace.facts.forget()  # the next question reads the graph's facts again
    budget = 0.3
    workspace.settings = replace(workspace.settings, question_timeout_s=budget)
    for question in ("Who are the authors of The Big Collaboration?", "Which venue published The Big Collaboration?"):
        start = time.monotonic()
        try:
            answer = workspace.ask(question)
            assert answer.answer
        except QuestionTimeoutError as err:
            assert f"time budget of {budget:g} s" in str(err) and "stopped in" in str(err)
        assert time.monotonic() - start < budget + MARGIN_S


def test_a_chain_hop_from_many_entities_reads_what_the_in_list_reads(workspace, monkeypatch):
    """A hop from more than IN_LIST_MAX entities (the 300 authors of P1) unwinds and joins their ids
    instead of Kùzu's `IN $ids`; both reads return the same rows, forward and backward."""
    from kgqa.graph import layout as layouts
    from kgqa.types import Entity

    _graph(workspace)
    authors = [Entity(f"A{i:06d}") for i in range(AUTHORS)]
    read = layouts.layout_of(workspace.store)

    def rows(limit: int) -> tuple[list, list]:
        monkeypatch.setattr(layouts, "IN_LIST_MAX", limit)
        back = sorted(map(repr, read.step(authors, "author", -1, 10_000)))
        out = sorted(map(repr, read.step([Entity("P1"), *authors], "author", 1, 10_000)))
        return back, out

    joined, listed = rows(100), rows(100_000)
    assert joined == listed and len(joined[0]) == AUTHORS + 4 and len(joined[1]) == AUTHORS  # A000002-5 wrote P2-P5
