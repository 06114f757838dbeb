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
