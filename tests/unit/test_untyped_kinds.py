"""Kinds of subject on a graph without types (kgqa/answering/untyped.py): which subjects are counted
together, and what the question calls them."""

from __future__ import annotations

from collections import Counter

from kgqa.answering.catalog import catalog_of_rows
from kgqa.answering.untyped import _kind_of_signatures, hubs_word


def kinds(*signatures: tuple[str, int]) -> list[set[str]]:
    """The kinds of subjects stating these predicate sets ("a b" stated by n subjects), as sets of sets."""
    counted = Counter({frozenset(s.split()): n for s, n in signatures})
    by_kind: dict[int, set[str]] = {}
    for sig, k in _kind_of_signatures(counted).items():
        by_kind.setdefault(k, set()).add(" ".join(sorted(sig)))
    return sorted(by_kind.values(), key=lambda k: sorted(k))


def test_a_film_missing_a_predicate_is_still_a_film():
    films = ("director genre writer year", 40)
    assert kinds(films, ("director genre year", 5), ("year", 2), ("award director year", 1)) == [
        {"director genre writer year", "director genre year", "year", "award director year"}
    ]


def test_one_shared_predicate_does_not_make_cities_countries():
    countries = ("capital continent language population", 7)
    cities = ("located_in population", 7)
    assert kinds(countries, cities) == [{"capital continent language population"}, {"located_in population"}]


def test_books_their_authors_and_publishers_are_three_kinds():
    found = kinds(("genre published_by written_by year", 6), ("born_in", 3), ("based_in", 3))
    assert found == [{"based_in"}, {"born_in"}, {"genre published_by written_by year"}]


def test_the_hubs_are_called_by_the_questions_word_for_them():
    cat = catalog_of_rows(
        [("m1", "Cold Orchard", "", "", "", "starred_actors", "a1", "Lena Voss", False)], "entity", in_cypher=False
    )
    assert hubs_word("which movies came out after 2015", cat) == "movie"
    assert hubs_word("how many films did lena voss make", cat) == "film"
    assert hubs_word("which gadgets were sold in 2019", cat) == "gadget"  # a plural noun that is no attribute
    assert hubs_word("which actors appear in more than 2 pictures", cat) == "picture"  # "actors": an attribute
    assert hubs_word("what is the most common genre", cat) == "entity"  # no word for the hubs
    assert hubs_word("did lena voss work on cold orchard", cat) == "entity"  # "work": a verb here
