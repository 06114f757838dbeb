"""Questions that ask two things, on a generated film graph (real Kùzu, real MiniLM): each part is answered
from the graph, the answer holds both with one sources list, and the expected values are read from the
generator's CSV here, not from the answerer."""

from __future__ import annotations

import csv
from collections import defaultdict

import pytest

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.synthetic.films import generate_films


@pytest.fixture(scope="module")
def films(tmp_path_factory, embedder):
    """The film graph, indexed, and what it says of each film: title, director, writers, year, and each
    director's films."""
    root = tmp_path_factory.mktemp("parts")
    gen = generate_films(root / "films", 400, seed=5, questions=0)
    ws = Workspace.init(Settings(db_path=root / "films.kuzu"), embedder=embedder)
    ws.load(gen.graph_file)
    ws.build_index(IndexParams(hub_types=("Movie",)))
    with gen.graph_file.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    facts: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    title: dict[str, str] = {}
    directed: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        if r["subject_types"] == "Movie":
            title[r["subject"]] = r["subject_label"]
            facts[r["subject"]][r["predicate"]].append(r["object_label"] or r["object"])
            if r["predicate"] == "director":
                directed[r["object_label"]].add(r["subject_label"])
    # films with one director and at least one writer, whose titles no other title contains
    plain = [
        m
        for m in sorted(title)
        if len(facts[m]["director"]) == 1
        and facts[m]["screenwriter"]
        and facts[m]["release year"]
        and not any(title[m].lower() in t.lower() for o, t in title.items() if o != m)
    ]
    yield ws, title, facts, directed, plain
    ws.close()


def _items(answer, part: int) -> set[str]:
    assert answer.result is not None and answer.result["operation"] == "parts", answer.answer
    return {str(i) for i in answer.result["parts"][part]["items"]}


def test_two_clauses_are_answered_each_with_citations_into_one_sources_list(films):
    ws, title, facts, _, plain = films
    movie = plain[0]
    a = ws.ask(f"Who wrote {title[movie]} and who directed it?")
    assert _items(a, 0) == set(facts[movie]["screenwriter"])
    assert _items(a, 1) == set(facts[movie]["director"])
    assert all(name in a.answer for name in facts[movie]["screenwriter"] + facts[movie]["director"])
    assert a.sources and all(f"[{s.n}]" in a.answer for s in a.sources)
    assert any("director" in t for t in a.triples) and any("screenwriter" in t for t in a.triples)
    # typed lower case, without a question mark, with "when ... it"
    b = ws.ask(f"who directed {title[movie].lower()} and when was it released")
    assert _items(b, 0) == set(facts[movie]["director"]) and _items(b, 1) == set(facts[movie]["release year"])


def test_two_verbs_share_one_object(films):
    ws, title, facts, _, plain = films
    movie = plain[1]
    a = ws.ask(f"Who wrote and directed {title[movie]}?")
    assert _items(a, 0) == set(facts[movie]["screenwriter"]) and _items(a, 1) == set(facts[movie]["director"])


def test_two_named_films_are_each_asked_about(films):
    ws, title, facts, _, plain = films
    first, second = plain[2], plain[3]
    a = ws.ask(f"Who directed {title[first]} and {title[second]}?")
    assert _items(a, 0) == set(facts[first]["director"]) and _items(a, 1) == set(facts[second]["director"])
    assert {s.hub_id for s in a.sources} == {first, second}


def test_what_else_she_directed_leaves_out_the_film_asked_about(films):
    ws, title, facts, directed, plain = films
    movie = next(m for m in plain if len(directed[facts[m]["director"][0]]) >= 2)
    director = facts[movie]["director"][0]
    a = ws.ask(f"Who directed {title[movie]} and what else did she direct?")
    assert _items(a, 0) == {director}
    assert _items(a, 1) == directed[director] - {title[movie]}


def test_parts_zero_answers_the_question_whole(films):
    ws, title, _, _, plain = films
    a = ws.ask(f"Who wrote {title[plain[0]]} and who directed it?", RetrievalParams(extra={"parts": 0}))
    assert a.result is None or a.result["operation"] != "parts"
