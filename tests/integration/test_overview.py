"""'Tell me about X', 'describe X', 'who is X' on a generated film graph (real Kùzu, real MiniLM): the answer
states every fact the CSV has for the film, or every film a person directed, each cited, and a question
about one attribute keeps its own answer."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "wording", ["Tell me about {t}", "describe {t}", "what do you know about '{t}'?", "What is {t}?"]
)
def test_an_overview_states_every_fact_of_the_film(film_workspace, wording):
    ws, title, facts, _, plain = film_workspace
    movie = plain[4]
    a = ws.ask(wording.format(t=title[movie].lower() if "describe" in wording else title[movie]))
    assert a.strategy == "overview" and a.topic_entity == movie, a.answer
    assert a.result is not None and a.result["operation"] == "overview"
    for predicate, values in facts[movie].items():
        assert sorted(a.result["groups"][predicate]) == sorted(values)
        assert all(v in a.answer for v in values)
        assert all(any(predicate in t and v in t for t in a.triples) for v in values)
    assert [s.hub_id for s in a.sources] == [movie] and a.answer.startswith(f"'{title[movie]}' (Movie) [1]")


def test_who_is_a_director_lists_the_films_named_by_her(film_workspace):
    ws, _, _, directed, _ = film_workspace
    director = max(directed, key=lambda d: (len(directed[d]), d))
    a = ws.ask(f"who is {director.lower()}")
    assert a.strategy == "overview", a.answer
    assert set(a.result["groups"]["director (of)"]) == directed[director]
    assert {s.label for s in a.sources} == directed[director]  # each film cited
    assert all(f"[{s.n}]" in a.answer for s in a.sources)


def test_a_question_about_one_attribute_is_no_overview(film_workspace):
    ws, title, facts, _, plain = film_workspace
    movie = plain[4]
    a = ws.ask(f"What is the release year of {title[movie]}?")
    assert a.strategy != "overview" and a.result["items"] == facts[movie]["release year"]
    b = ws.ask(f"what is {title[movie]} about?")  # the film's keywords, not everything
    assert b.strategy != "overview"
