"""HubLink indexing and answering on the packaged demo graph, with real Kùzu and real MiniLM."""

from __future__ import annotations

import json

import pytest

from kgqa.config import IndexParams, RetrievalParams
from kgqa.errors import IndexMismatchError, IndexMissingError
from kgqa.indexing.metadata import META_KEY


def test_demo_index_counts_and_no_rebuild(demo_workspace):
    status = demo_workspace.index_status()
    assert status.counts.hubs == 35 and status.counts.paths > 200
    assert status.counts.vectors > status.counts.texts > 0 and status.ann_index
    report = demo_workspace.build_index(IndexParams(hub_types=("Paper",)))
    assert report.nothing_to_do and report.hubs_unchanged == 35 and report.texts_embedded == 0


def test_paths_never_pass_through_another_hub(demo_workspace):
    from kgqa.vectorstores.base import decode_triples

    rows = demo_workspace.store._execute("t", "MATCH (p:kgqa_HubPath) RETURN p.hub_id, p.triples", None)
    papers = {f"P{i:02d}" for i in range(1, 36)}
    for hub_id, triples in rows:
        path = decode_triples(triples)
        assert path[0].subject.id == hub_id
        inner = [t.object.id for t in path[:-1]]
        assert not papers.intersection(inner), (hub_id, inner)


def test_ask_icsa_2019_cites_papers_and_returns_their_triples(demo_workspace):
    a = demo_workspace.ask(
        "Which papers were published at ICSA in 2019?", RetrievalParams(topic_entity="F01", hubs_to_keep=10)
    )
    icsa_2019 = {"P01", "P02", "P03", "P04", "P05"}
    cited = {s.hub_id for s in a.sources}
    assert icsa_2019 <= cited
    assert any(t.startswith("(P01:") and t.endswith("publication year, 2019)") for t in a.triples)
    assert "[1]" in a.answer and a.strategy == "traversal" and a.mode == "offline"
    assert a.llm_tokens["total_tokens"] == 0
    data = a.as_dict()
    assert {"answer", "sources", "triples", "hubs", "timings", "llm_tokens"} <= set(data)
    json.dumps(data)


def test_direct_strategy_and_label_topic(demo_workspace):
    a = demo_workspace.ask(
        "Which papers use a controlled experiment as evaluation method?",
        RetrievalParams(strategy="direct", hubs_to_keep=10),
    )
    assert a.strategy == "direct"
    assert any("evaluation method, M02:Controlled experiment)" in t for t in a.triples)
    b = demo_workspace.ask(
        "Who wrote Recovering Microservice Boundaries from Monolith Call Graphs?",
        RetrievalParams(topic_entity="Software Architecture", hubs_to_keep=5),
    )
    assert b.topic_entity == "F01"


def test_index_checked_on_open(workspace, tmp_path):
    f = tmp_path / "g.csv"
    f.write_text("subject,predicate,object,subject_types\nP1,venue,V1,Paper\n", encoding="utf-8")
    workspace.load(f)
    with pytest.raises(IndexMissingError):
        workspace.ask("anything?")
    workspace.build_index(IndexParams(hub_types=("Paper",)))
    meta = workspace.store.meta_get(META_KEY)
    workspace.store.meta_set(META_KEY, dict(meta, embedding_model="other-model"))
    with pytest.raises(IndexMismatchError, match="other-model"):
        workspace.ask("anything?")
    with pytest.raises(IndexMismatchError):
        workspace.build_index(IndexParams(hub_types=("Paper",)))
    report = workspace.build_index(IndexParams(hub_types=("Paper",)), rebuild=True)
    assert report.hubs_rebuilt == 1 and workspace.ask("venue of P1?").sources
