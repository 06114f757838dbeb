"""Questions that ask two things, on a generated film graph (real Kùzu, real MiniLM): each part is answered
from the graph, the answer holds both with one sources list, and the expected values are read from the
generator's CSV here, not from the answerer."""

from __future__ import annotations

from kgqa.config import RetrievalParams


def _items(answer, part: int) -> set[str]:
    assert answer.result is not None and answer.result["operation"] == "parts", answer.answer
    return {str(i) for i in answer.result["parts"][part]["items"]}


def test_two_clauses_are_answered_each_with_citations_into_one_sources_list(film_workspace):
    ws, title, facts, _, plain = film_workspace
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


def test_two_verbs_share_one_object(film_workspace):
    ws, title, facts, _, plain = film_workspace
    movie = plain[1]
    a = ws.ask(f"Who wrote and directed {title[movie]}?")
    assert _items(a, 0) == set(facts[movie]["screenwriter"]) and _items(a, 1) == set(facts[movie]["director"])


def test_two_nouns_of_one_film(film_workspace):
    ws, title, facts, _, plain = film_workspace
    movie = plain[1]
    a = ws.ask(f"what are the director and release year of {title[movie].lower()}")
    assert _items(a, 0) == set(facts[movie]["director"]) and _items(a, 1) == set(facts[movie]["release year"])


def test_two_named_films_are_each_asked_about(film_workspace):
    ws, title, facts, _, plain = film_workspace
    first, second = plain[2], plain[3]
    a = ws.ask(f"Who directed {title[first]} and {title[second]}?")
    assert _items(a, 0) == set(facts[first]["director"]) and _items(a, 1) == set(facts[second]["director"])
    assert {s.hub_id for s in a.sources} == {first, second}


def test_what_else_she_directed_leaves_out_the_film_asked_about(film_workspace):
    ws, title, facts, directed, plain = film_workspace
    movie = next(m for m in plain if len(directed[facts[m]["director"][0]]) >= 2)
    director = facts[movie]["director"][0]
    a = ws.ask(f"Who directed {title[movie]} and what else did she direct?")
    assert _items(a, 0) == {director}
    assert _items(a, 1) == directed[director] - {title[movie]}


def test_parts_zero_answers_the_question_whole(film_workspace):
    ws, title, _, _, plain = film_workspace
    a = ws.ask(f"Who wrote {title[plain[0]]} and who directed it?", RetrievalParams(extra={"parts": 0}))
    assert a.result is None or a.result["operation"] != "parts"
