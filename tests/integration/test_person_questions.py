"""Questions about the people of a generated film graph, typed the way users type them (real Kùzu, real
MiniLM; the expected answers are read from the generator's CSV here): what a person did along the verb
the question closes with, a count through "the director of X" (X counted too), "has X directed any
films?", the films two people star in, who worked with X, a value named in the plural with a decade,
a film picked by its director and year, and no "yes" from facts the question names nothing of."""

from __future__ import annotations

from collections import defaultdict

import pytest

from kgqa.answering.words import plural

ROLES = ("director", "screenwriter", "cast member")


@pytest.fixture(scope="module")
def people(film_workspace):
    """person -> role -> the ids of their films."""
    _, _, facts, _, _ = film_workspace
    out: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for m, f in facts.items():
        for role in ROLES:
            for p in f[role]:
                out[p][role].add(m)
    return out


def test_what_a_person_did_follows_the_closing_verb(film_workspace, people):
    """ "what genres did X direct": the genres of the films X directed, not of those X wrote."""
    ws, _, facts, _, _ = film_workspace

    def genres(films: set[str]) -> set[str]:
        return {g for m in films for g in facts[m]["genre"]}

    person = next(
        p
        for p in sorted(people)
        if people[p]["director"]
        and people[p]["screenwriter"]
        and genres(people[p]["director"]) != genres(people[p]["screenwriter"])
    )
    a = ws.ask(f"what genres did {person.lower()} direct")
    assert set(a.result["items"]) == genres(people[person]["director"]), a.answer


def test_a_count_through_the_director_of_a_film_counts_the_film(film_workspace):
    ws, title, facts, directed, _ = film_workspace
    m = next(m for m in sorted(title) if len(facts[m]["director"]) == 1 and len(directed[facts[m]["director"][0]]) >= 2)
    (director,) = facts[m]["director"]
    a = ws.ask(f"how many films did the director of {title[m].lower()} make")
    assert a.result["operation"] == "count" and a.result["value"] == len(directed[director]), a.answer
    assert title[m] in a.result["items"], a.answer
    other = ws.ask(f"how many other films did the director of {title[m].lower()} make")
    assert other.result["value"] == len(directed[director]) - 1, other.answer


def test_has_a_person_done_something_at_all(film_workspace, people):
    ws, title, _, _, _ = film_workspace
    director = next(p for p in sorted(people) if people[p]["director"])
    yes = ws.ask(f"has {director.lower()} directed any films")
    assert yes.result["value"] == "yes" and yes.answer.startswith("Yes"), yes.answer
    assert set(yes.result["items"]) == {title[m] for m in people[director]["director"]}, yes.answer
    never = next(p for p in sorted(people) if people[p]["director"] and not people[p]["cast member"])
    no = ws.ask(f"has {never.lower()} ever acted in a movie")
    assert no.result["value"] == "no" and no.answer.startswith("No: the graph has no movie"), no.answer


def test_the_films_two_people_star_in(film_workspace, people):
    ws, title, _, _, _ = film_workspace
    cast = sorted(p for p in people if people[p]["cast member"])
    a, b = next(
        (a, b)
        for a in cast
        for b in cast
        if a < b
        and people[a]["cast member"] & people[b]["cast member"]
        and people[b]["cast member"] - people[a]["cast member"]
    )
    both = {title[m] for m in people[a]["cast member"] & people[b]["cast member"]}
    answer = ws.ask(f"which films star {a.lower()} and {b.lower()}")
    assert set(answer.result["items"]) == both, answer.answer


def test_who_acted_in_films_with_a_person(film_workspace, people):
    ws, _, facts, _, _ = film_workspace
    actor = max(sorted(people), key=lambda p: len(people[p]["cast member"]))
    co = {q for m in people[actor]["cast member"] for q in facts[m]["cast member"]} - {actor}
    a = ws.ask(f"who acted in films with {actor.lower()}")
    assert set(a.result["items"]) == co, a.answer


def test_which_directors_a_person_worked_with(film_workspace, people):
    """X acted in more films than X directed: the directors of the films X acted in."""
    ws, _, facts, _, _ = film_workspace
    actor = next(p for p in sorted(people) if len(people[p]["cast member"]) > max(len(people[p]["director"]), 1) + 1)
    directors = {d for m in people[actor]["cast member"] for d in facts[m]["director"]} - {actor}
    a = ws.ask(f"which directors has {actor.lower()} worked with")
    assert set(a.result["items"]) == directors, a.answer


def test_a_plural_value_from_a_decade(film_workspace):
    ws, title, facts, _, _ = film_workspace
    by_decade: dict[tuple[str, int], set[str]] = defaultdict(set)
    for m, f in facts.items():
        for g in f["genre"]:
            for y in f["release year"]:
                by_decade[(g, int(y) // 10 * 10)].add(m)
    (genre, decade), films = next(
        (k, v)
        for k, v in sorted(by_decade.items())
        if " " not in k[0] and len(v) >= 2 and any(k[0] in facts[m]["genre"] for m in facts if m not in v)
    )
    a = ws.ask(f"{plural(genre.lower())} from the {decade}s")
    assert set(a.result["items"]) == {title[m] for m in films}, a.answer


def test_a_film_picked_by_its_director_and_year(film_workspace):
    ws, title, facts, directed, _ = film_workspace
    by_title = {t: m for m, t in title.items()}
    for director in sorted(directed):
        films = [by_title[t] for t in directed[director]]
        years = [facts[m]["release year"][0] for m in films if facts[m]["release year"]]
        pick = next(
            (m for m in films if facts[m]["screenwriter"] and years.count(facts[m]["release year"][0]) == 1), None
        )
        if len(films) >= 2 and pick:
            break
    year = facts[pick]["release year"][0]
    a = ws.ask(f"who wrote the film that {director.lower()} directed in {year}")
    assert set(a.result["items"]) == set(facts[pick]["screenwriter"]), a.answer


def test_no_yes_from_facts_the_question_names_nothing_of(film_workspace):
    ws, title, _, _, plain = film_workspace
    a = ws.ask(f"did {title[plain[0]].lower()} win an oscar")
    assert not a.answer.startswith("Yes") and a.result.get("value") != "yes", a.answer


def test_the_film_described_by_its_own_values(film_workspace):
    """ "who starred in the french comedy x": the film's own language and genre before its title describe
    it; they constrain no answer."""
    ws, title, facts, _, plain = film_workspace
    m = next(
        m
        for m in plain
        if facts[m]["cast member"] and facts[m]["original language"] and any(" " not in g for g in facts[m]["genre"])
    )
    genre = next(g for g in facts[m]["genre"] if " " not in g)
    language = facts[m]["original language"][0]
    a = ws.ask(f"who starred in the {language.lower()} {genre.lower()} {title[m].lower()}")
    assert set(a.result["items"]) == set(facts[m]["cast member"]), a.answer


def test_what_a_person_did_in_a_decade(film_workspace):
    ws, title, facts, directed, _ = film_workspace
    by_title = {t: m for m, t in title.items()}
    for director in sorted(directed, key=lambda d: (-len(directed[d]), d)):
        decades = {int(facts[by_title[t]]["release year"][0]) // 10 * 10 for t in directed[director]}
        if len(decades) >= 2:
            break
    decade = min(decades)
    films = {t for t in directed[director] if int(facts[by_title[t]]["release year"][0]) // 10 * 10 == decade}
    a = ws.ask(f"what did {director.lower()} direct in the {decade}s")
    assert set(a.result["items"]) == films, a.answer
