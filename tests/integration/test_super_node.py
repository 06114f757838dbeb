"""A super-node never fails the build (real Kùzu, real model): a hub with more paths than the cap is
indexed in part, with a deterministic choice that keeps every kind of path, one warning line, the rest
of the graph indexed in full, `index status` lists it, and questions about it are answered."""

from __future__ import annotations

import json

from serve_helpers import kgqa

from kgqa.config import IndexParams
from kgqa.graph.edits import triple_record
from kgqa.indexing.paths import capped_paths

CAP = 40
AUTHORS = 300


def _graph(ws) -> None:
    records = [
        triple_record(
            "P1",
            "author",
            f"A{i:03d}",
            subject_label="The Big Collaboration",
            subject_types=["Paper"],
            object_label=f"Author Number {i}",
            object_types=["Person"],
        )
        for i in range(AUTHORS)
    ]
    records += [
        triple_record("P1", "venue", "V1", object_label="Conference on Large Teams", object_types=["Venue"]),
        triple_record("P1", "publication year", "2021", literal=True),
    ]
    for p in range(2, 6):
        records += [
            triple_record(f"P{p}", "author", f"A{p:03d}", subject_label=f"Small Paper {p}", subject_types=["Paper"]),
            triple_record(f"P{p}", "venue", "V1"),
        ]
    ws.add_triples(records)


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
