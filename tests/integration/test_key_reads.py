"""Issue 30: the question-time graph reads that Kùzu 0.11.3 plans as scans of the whole graph when given a
list of ids (exact answers' matching and grouping, entities by id, relation-chain hops) have key-read
forms (one primary-key lookup per id); `GraphStore.by_key` picks the cheaper by the table's size. Both
forms must give the same answers. Real Kùzu, the demo graph, real MiniLM model: each question is asked
with scans forced and with key reads forced, and the runs are compared, not checked against our code."""

from __future__ import annotations

from typing import Any

import pytest

from kgqa.config import RetrievalParams
from kgqa.graph import store as store_mod
from kgqa.graph.layout import layout_of

DIRECT = RetrievalParams(strategy="direct")
QUESTIONS = [
    "How many papers were published at ICSA?",  # matching: a direct constraint
    "how many papers use a case study as evaluation method",  # matching through the contribution
    "How many papers were published per publication year?",  # grouping, no constraint
    "How many papers did each venue publish?",  # grouping by a direct key
    "Who wrote 'Recovering Microservice Boundaries from Monolith Call Graphs'?",  # a chain hop out
    "Which organisations are the authors of 'Architectural Smells as Early Indicators of Technical Debt' "
    "affiliated with?",  # two chain hops
    "rank the icsa papers by year",
    "Who are the co-authors of Lena Hoffmeier?",  # a two-hop chain from a frontier of several papers
    "In which years did the co-authors of Lena Hoffmeier publish papers?",
]


def _answer(ws: Any, question: str) -> tuple[Any, ...]:
    a = ws.ask(question, DIRECT)
    result = a.result or {}
    items = result.get("items")
    return (
        a.answer.split("[query]")[0] if result.get("operation") in (None, "lookup") else None,
        list(map(str, items)) if isinstance(items, list) else items,  # in order: the read must not reorder
        result.get("value"),
        result.get("groups"),
        sorted(t.canonical if hasattr(t, "canonical") else str(t) for t in a.triples),
    )


def _run(ws: Any, scan_row_s: float, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple], set[str]]:
    """Every question's answer with GRAPH_SCAN_ROW_S set (0: list reads; huge: key reads), and the names
    of the queries the graph store ran."""
    monkeypatch.setattr(store_mod, "GRAPH_SCAN_ROW_S", scan_row_s)
    ran: set[str] = set()
    before = ws.store.tracer
    ws.store.tracer = lambda name, params, seconds: ran.add(name.split(" x")[0])
    try:
        return [_answer(ws, q) for q in QUESTIONS], ran
    finally:
        ws.store.tracer = before


def test_key_reads_and_list_reads_give_the_same_answers(demo_workspace, monkeypatch):
    ws = demo_workspace
    ws.ask(QUESTIONS[0], DIRECT)  # catalogs read once, outside both runs
    by_list, ran_list = _run(ws, 0.0, monkeypatch)
    by_key, ran_key = _run(ws, 1.0, monkeypatch)
    for question, a, b in zip(QUESTIONS, by_list, by_key):
        assert a == b, question
    assert any(a[2] for a in by_list), "no question got a count: the comparison would be empty"
    one = {n for n in ran_key if n.endswith("_one") or n.endswith("_one_via") or n == "graph/entity_by_id"}
    assert {"answering/matching_hubs_one", "answering/group_hubs_one", "chains/step_out_one"} <= one, ran_key
    assert not {n for n in ran_list if "_one" in n or n == "graph/entity_by_id"}, ran_list
    assert {"answering/matching_hubs", "answering/group_hubs"} <= ran_list


def test_by_key_weighs_the_tables_size(demo_workspace, monkeypatch):
    store = demo_workspace.store
    monkeypatch.setattr(store_mod, "GRAPH_SCAN_ROW_S", 0.5e-6)
    store._rows.clear()
    assert store.by_key(1, 1e-9, "Triple") and not store.by_key(1, 1.0, "Triple")
    triples = store.run("graph/count_triples")[0][0]
    assert store._rows["Triple"] == triples  # counted once, kept


def test_edge_reads_by_key_match_the_list_reads(demo_workspace, monkeypatch):
    """`out_edges` / `in_edges` (connections, traversal, the explorer) read the same triples either way."""
    store = demo_workspace.store
    layout = layout_of(store)
    ids = [r[0] for r in store.run("graph/entities_by_label", {"label": "ICSA", "limit": 5})]
    ids += [t.subject.id for t in layout.in_edges(ids)][:20] + ["no-such-entity"]  # ICSA and its papers
    assert len(ids) > 3
    read: dict[float, tuple[list, list, set[str]]] = {}
    for scan_row_s in (0.0, 1.0):  # list reads, then key reads
        monkeypatch.setattr(store_mod, "GRAPH_SCAN_ROW_S", scan_row_s)
        ran: set[str] = set()
        before = store.tracer
        store.tracer = lambda name, params, seconds, ran=ran: ran.add(name.split(" x")[0])
        try:
            read[scan_row_s] = (sorted(map(str, layout.out_edges(ids))), sorted(map(str, layout.in_edges(ids))), ran)
        finally:
            store.tracer = before
    (out_l, in_l, ran_l), (out_k, in_k, ran_k) = read[0.0], read[1.0]
    assert out_l and in_l and (out_l, in_l) == (out_k, in_k)
    assert {"graph/out_edges", "graph/in_edges"} <= ran_l and not {n for n in ran_l if n.endswith("_one")}
    assert {"graph/out_edges_one", "graph/in_edges_one"} <= ran_k
