"""Yes/no questions answered from the graph on a generated film graph (real Kùzu, real MiniLM): whether
two people worked together (a film linked to both), whether a person's films include a value ("did X
direct a drama?", also in the plural), whether a film's year is the one asked, and "who directed more
films, A or B". The expected verdicts are read from the generator's CSV here."""

from __future__ import annotations

from itertools import combinations

from kgqa.answering.words import plural


def _people(facts):
    """person -> the titles' ids of the films they are linked to (any role)."""
    out: dict[str, set[str]] = {}
    for m, f in facts.items():
        for role in ("director", "screenwriter", "cast member"):
            for p in f[role]:
                out.setdefault(p, set()).add(m)
    return out


def test_two_people_who_share_a_film_worked_together(film_workspace):
    ws, title, facts, _, _ = film_workspace
    people = _people(facts)
    names = sorted(people)
    a, b = next((a, b) for a, b in combinations(names, 2) if len(people[a] & people[b]) == 1)
    (film,) = people[a] & people[b]
    answer = ws.ask(f"has {a.lower()} ever worked with {b.lower()}")
    assert answer.result["operation"] == "relationship" and answer.result["value"] == "yes", answer.answer
    assert answer.answer.startswith("Yes, through one movie") and [s.label for s in answer.sources] == [title[film]]


def test_two_people_who_share_no_film_did_not(film_workspace):
    ws, _, facts, _, _ = film_workspace
    people = _people(facts)
    names = sorted(p for p in people if len(people[p]) >= 2)
    a, b = next((a, b) for a, b in combinations(names, 2) if not people[a] & people[b])
    answer = ws.ask(f"did {a.lower()} and {b.lower()} ever work together")
    assert answer.result["value"] == "no" and answer.answer.startswith("No:"), answer.answer


def test_did_a_director_make_a_film_of_a_genre(film_workspace):
    ws, title, facts, directed, _ = film_workspace
    by_title = {t: m for m, t in title.items()}
    genres = sorted({g for f in facts.values() for g in f["genre"] if " " not in g})
    for director in sorted(directed, key=lambda d: (-len(directed[d]), d)):
        had = {t: set(facts[by_title[t]]["genre"]) for t in directed[director]}
        some = [g for g in genres if any(g in h for h in had.values())]
        none = [g for g in genres if not any(g in h for h in had.values())]
        if some and none and len(had) >= 2:
            break
    yes = ws.ask(f"did {director.lower()} direct a {some[0].lower()}")
    assert yes.result["value"] == "yes" and yes.answer.startswith("Yes"), yes.answer
    assert {s.label for s in yes.sources} == {t for t, h in had.items() if some[0] in h}, yes.answer
    no = ws.ask(f"has {director.lower()} directed any {plural(none[0].lower())}")  # the value in the plural
    assert no.result["value"] == "no" and no.answer.startswith("No"), no.answer
    assert none[0] in no.answer, no.answer


def test_was_a_film_released_in_a_year(film_workspace):
    ws, title, facts, _, plain = film_workspace
    m = plain[0]
    (year,) = facts[m]["release year"]
    yes = ws.ask(f"was {title[m].lower()} released in {year}")
    assert yes.result["value"] == "yes" and yes.answer.startswith("Yes"), yes.answer
    no = ws.ask(f"was {title[m].lower()} released in {int(year) + 1}")
    assert no.result["value"] == "no" and year in no.answer, no.answer
    after = ws.ask(f"did {title[m].lower()} come out before {int(year) + 5}")
    assert after.result["value"] == "yes", after.answer


def test_who_directed_more_films_of_two(film_workspace):
    ws, _, _, directed, _ = film_workspace
    ranked = sorted(directed, key=lambda d: (-len(directed[d]), d))
    a, b = ranked[0], next(d for d in ranked if len(directed[d]) < len(directed[ranked[0]]))
    answer = ws.ask(f"who directed more films, {b.lower()} or {a.lower()}")
    assert answer.result["operation"] == "compare" and answer.result["value"] == "fewer", answer.answer
    assert answer.result["groups"] == {b: len(directed[b]), a: len(directed[a])}, answer.result
