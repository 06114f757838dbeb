"""Wordings of chain questions as people type them, on a generated film graph (real Kùzu, real MiniLM):
the expected answers are read from the generator's CSV here."""

from __future__ import annotations


def test_a_possessive_person_takes_the_relation_she_has(film_workspace):
    """ "when were X's movies released": no word names X's relation to her movies; the schema's heaviest
    (cast member) is swapped for the one X has (director)."""
    ws, title, facts, directed, _ = film_workspace
    director = max(directed, key=lambda d: (len(directed[d]), d))
    by_title = {t: m for m, t in title.items()}
    years = {y for t in directed[director] for y in facts[by_title[t]]["release year"]}
    a = ws.ask(f"when were {director.lower()}'s movies released")
    assert a.strategy == "chain" and set(a.result["items"]) == years, a.answer
    assert any("director" in t for t in a.triples)


def test_the_movies_of_a_director_then_their_cast(film_workspace):
    """ "who acted in the movies of X" (X a director who acted in none): X's films, then their cast; also
    with "X's latest movie" between ("who is in the cast of X's latest movie")."""
    ws, title, facts, directed, _ = film_workspace
    by_title = {t: m for m, t in title.items()}
    actors = {c for f in facts.values() for c in f["cast member"]}
    director = next(d for d in sorted(directed, key=lambda d: (-len(directed[d]), d)) if d not in actors)
    films = [by_title[t] for t in directed[director]]
    a = ws.ask(f"who acted in the movies of {director.lower()}")
    assert set(a.result["items"]) == {c for m in films for c in facts[m]["cast member"]}, a.answer
    latest = max(int(y) for m in films for y in facts[m]["release year"])
    newest = [m for m in films if str(latest) in facts[m]["release year"]]
    a = ws.ask(f"who acted in {director.lower()}s movies")  # the possessive typed without its apostrophe
    assert set(a.result["items"]) == {c for m in films for c in facts[m]["cast member"]}, a.answer
    a = ws.ask(f"who is in the cast of {director.lower()}'s latest movie")
    assert set(a.result["items"]) == {c for m in newest for c in facts[m]["cast member"]}, a.answer


def test_a_decade_and_the_top_n(film_workspace):
    ws, title, facts, directed, _ = film_workspace
    by_title = {t: m for m, t in title.items()}
    director = max(directed, key=lambda d: (len(directed[d]), d))
    years = {t: int(facts[by_title[t]]["release year"][0]) for t in directed[director]}
    decade = sorted(years.values())[len(years) // 2] // 10 * 10
    a = ws.ask(f"movies by {director.lower()} from the {decade}s")
    assert set(a.result["items"]) == {t for t, y in years.items() if decade <= y < decade + 10}, a.answer
    counts = sorted(((len(f), d) for d, f in directed.items()), reverse=True)
    a = ws.ask("which 3 directors made the most movies")
    edge = counts[2][0]
    assert set(a.result["items"]) == {d for n, d in counts if n >= edge}, a.answer
    assert a.result["groups"] == {d: n for n, d in counts if n >= edge}, a.result
