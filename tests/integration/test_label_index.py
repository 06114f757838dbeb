"""The graph's labels in memory (kgqa/retrieval/chains/label_index.py) link the same topics as the
search of the graph they replace, on real Kùzu (the demo graph, and a graph of our own with labels that
hide inside words and start with punctuation); a read-only workspace reads them at its second question."""

from __future__ import annotations

from kgqa.api import Workspace
from kgqa.config import RetrievalParams, Settings
from kgqa.graph.layout import layout_of
from kgqa.retrieval.chains.label_index import LabelIndex
from kgqa.retrieval.chains.linking import MIN_LABEL_LENGTH, link_topic


def _questions(ws: Workspace) -> list[str]:
    rows = ws.store.query("MATCH (e:Entity) RETURN e.label ORDER BY e.id LIMIT 60")[1]
    out = []
    for (label,) in rows:
        out += [f"Who wrote {label}?", f"what is {label.lower()} about", f"papers of {label}s", f"x{label} y"]
    return out + ["Which papers did nobody we know write?", ""]


def test_the_index_links_what_the_search_links(demo_workspace):
    ws = demo_workspace
    index = LabelIndex(layout_of(ws.store).entity_labels(MIN_LABEL_LENGTH))
    assert index.size > 100
    for question in _questions(ws):
        assert link_topic(ws.store, question, index) == link_topic(ws.store, question), question


def test_labels_inside_words_and_after_punctuation(workspace, tmp_path):
    csv = tmp_path / "g.csv"
    csv.write_text(
        "subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal\n"
        "F1,director,P1,(500) Days,Film,Marc Webb,Person,false\n"
        "F2,director,P2,Son,Film,Ann Lee,Person,false\n"
        "F3,director,P2,Nilsson Story,Film,Ann Lee,Person,false\n"
        "F4,director,P3,Ann,Film,Bo Chen,Person,false\n",
        encoding="utf-8",
    )
    workspace.load(csv)
    index = LabelIndex(layout_of(workspace.store).entity_labels(MIN_LABEL_LENGTH))
    for question in (
        "who directed (500) days?",  # a label starting with punctuation
        "who directed the nilsson story",  # "son" inside "nilsson" is no mention
        "who directed son",
        "what did ann lee direct",  # the longer label, not "ann"
    ):
        with_index, searched = link_topic(workspace.store, question, index), link_topic(workspace.store, question)
        assert with_index == searched and with_index is not None, question
    assert link_topic(workspace.store, "who directed the nilsson story", index).label == "Nilsson Story"


def test_a_read_only_workspace_reads_the_labels_at_its_second_linked_question(demo_workspace, embedder):
    path = demo_workspace.settings.db_path
    with Workspace(Settings(db_path=path), read_only=True, embedder=embedder) as ws:
        chains = ws.facts.chain_answerer(ws.embedder)
        title = ws.store.query("MATCH (e:Entity) WHERE list_contains(e.types, 'Paper') RETURN e.label LIMIT 1")[1][0][0]
        ws.ask(f"who wrote {title.lower()}", RetrievalParams(strategy="direct"))
        assert chains._labels is None  # one question: the graph is searched
        second = ws.ask(f"who are the authors of {title.lower()}", RetrievalParams(strategy="direct"))
        assert chains._labels is not None and second.strategy == "chain"
