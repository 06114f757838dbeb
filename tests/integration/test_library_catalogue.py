"""A library's own Kùzu catalogue (node and rel tables made with Cypher, indexed in place with the books as
hubs), asked as people type. Its labels are the rel tables' names (`IN_GENRE` "in genre", `FROM_COUNTRY`
"from country", `PUBLISHED_BY`), a book's year is a property called `published` (a word, not "year")
beside its authors' `born`, and `WROTE` points from the authors into the books. Expected answers are
computed from the rows here. Real Kùzu, real MiniLM, offline mode, direct strategy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from graph_rows import written_with_cypher
from test_own_graph_domains import ask
from test_own_graph_named_by_keys import made_and_indexed

from kgqa.answering.words import number_words
from kgqa.api import Workspace

#: id, name, born, country
AUTHORS = [
    ("a1", "Kenji Sato", 1948, "Nigeria"),
    ("a2", "Aiko Hanamura", 1968, "Ireland"),
    ("a3", "Lucia Valdivieso", 1946, "Chile"),
    ("a4", "Owen Brannock", 1959, "Nigeria"),
]
#: isbn, title, published, pages, authors, publisher, genres
BOOKS = [
    ("b1", "The Paper Harbour", 1965, 260, ["a1"], "Quillstone", ["Literary Fiction"]),
    ("b2", "Paper Lantern", 1969, 410, ["a1"], "Harbor House", ["Poetry"]),
    ("b3", "Silver Letters", 2017, 380, ["a1"], "Quillstone", ["Science Fiction", "Poetry"]),
    ("b4", "Distant River", 1973, 300, ["a1", "a4"], "Blue Heron Books", ["Essays"]),
    ("b5", "Distant Orchard", 1975, 214, ["a2"], "Harbor House", ["Mystery"]),
    ("b6", "The Quiet Orchard", 2020, 333, ["a2"], "Quillstone", ["Literary Fiction"]),
    ("b7", "Iron Season", 1990, 520, ["a3"], "Blue Heron Books", ["Historical Fiction"]),
    ("b8", "Quiet Tide", 2004, 610, ["a4"], "Quillstone", ["Mystery", "Literary Fiction"]),
]


def catalogue_statements() -> list[tuple[str, dict]]:
    """The Cypher that writes the library's database, with its parameters."""
    out: list[tuple[str, dict]] = [
        (ddl, {})
        for ddl in (
            "CREATE NODE TABLE Book(isbn STRING PRIMARY KEY, title STRING, published INT64, pages INT64)",
            "CREATE NODE TABLE Author(id STRING PRIMARY KEY, name STRING, born INT64)",
            "CREATE NODE TABLE Publisher(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE Genre(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE Country(name STRING PRIMARY KEY)",
            "CREATE REL TABLE WROTE(FROM Author TO Book)",
            "CREATE REL TABLE PUBLISHED_BY(FROM Book TO Publisher)",
            "CREATE REL TABLE IN_GENRE(FROM Book TO Genre)",
            "CREATE REL TABLE FROM_COUNTRY(FROM Author TO Country)",
        )
    ]
    names = {
        "Publisher": {b[5] for b in BOOKS},
        "Genre": {g for b in BOOKS for g in b[6]},
        "Country": {a[3] for a in AUTHORS},
    }
    out += [(f"CREATE (:{table} {{name: $n}})", {"n": n}) for table, values in names.items() for n in sorted(values)]
    link = "MATCH (x:{} {{{}: $x}}), (y:{} {{{}: $y}}) CREATE (x)-[:{}]->(y)"
    for key, name, born, country in AUTHORS:
        out.append(("CREATE (:Author {id: $i, name: $n, born: $b})", {"i": key, "n": name, "b": born}))
        out.append((link.format("Author", "id", "Country", "name", "FROM_COUNTRY"), {"x": key, "y": country}))
    for isbn, title, year, pages, authors, publisher, genres in BOOKS:
        out.append(
            (
                "CREATE (:Book {isbn: $i, title: $t, published: $y, pages: $p})",
                {"i": isbn, "t": title, "y": year, "p": pages},
            )
        )
        out += [(link.format("Author", "id", "Book", "isbn", "WROTE"), {"x": a, "y": isbn}) for a in authors]
        out.append((link.format("Book", "isbn", "Publisher", "name", "PUBLISHED_BY"), {"x": isbn, "y": publisher}))
        out += [(link.format("Book", "isbn", "Genre", "name", "IN_GENRE"), {"x": isbn, "y": g}) for g in genres]
    return out


def make_catalogue(path: Path) -> None:
    """The library's own database, written with Cypher."""
    written_with_cypher(path, catalogue_statements())


@pytest.fixture(scope="module")
def library(tmp_path_factory, embedder) -> Iterator[Workspace]:
    yield from made_and_indexed(tmp_path_factory, "library", make_catalogue, "Book", embedder)


def books_of(author: str) -> list[tuple]:
    key = next(a[0] for a in AUTHORS if a[1] == author)
    return [b for b in BOOKS if key in b[4]]


def test_newest_and_oldest_by_the_books_own_year(library):
    """ "published" dates a book (its values are years; no label says "year"), not its authors' "born"."""
    mine = books_of("Kenji Sato")
    _, text, result = ask(library, "list kenji sato's books from newest to oldest")
    assert result["items"] == [b[1] for b in sorted(mine, key=lambda b: -b[2])], text
    oldest, newest = min(mine, key=lambda b: b[2])[1], max(mine, key=lambda b: b[2])[1]
    for question, title in (
        ("which book by kenji sato is the oldest", oldest),
        ("what is kenji sato's newest book", newest),
    ):
        items, text, _ = ask(library, question)
        assert items == [title], (question, text)


def test_who_published_asks_for_the_publisher(library):
    """ "who published X": `published` alone labels a year, so the label of "published" and "by" answers."""
    items, text, _ = ask(library, "who published quiet tide")
    assert items == ["Quillstone"], text
    first = min(books_of("Kenji Sato"), key=lambda b: b[2])
    items, text, _ = ask(library, "who published kenji sato's first book")
    assert items == [first[5]], text


def test_rel_tables_named_with_a_preposition_read_as_nouns(library):
    """ "where is X from": the country (`FROM_COUNTRY`), not the year X was born; "in genre" is said "genre"."""
    items, text, _ = ask(library, "where is owen brannock from")
    assert items == ["Nigeria"] and text.startswith("The country of 'Owen Brannock' is Nigeria"), text
    _, text, _ = ask(library, "what genre is quiet tide")
    assert text.startswith("The genres of 'Quiet Tide' are"), text
    _, text, _ = ask(library, "which books by kenji sato are mysteries")
    assert "has genre Mystery" in text and "in genre" not in text, text


def test_a_type_named_like_the_relation_into_the_hubs(library):
    """`Author -WROTE-> Book` read from the books is called "author", the source table's name: "books
    written by *authors* from nigeria" names the type (then wrote), "the *author of* X" the relation."""
    wanted = sorted(b[1] for b in BOOKS if {"a1", "a4"} & set(b[4]))
    items, text, _ = ask(library, "which books were written by authors from nigeria")
    assert items == wanted, text
    _, text, _ = ask(library, "who are the authors of paper lantern")
    assert text.startswith("The author of 'Paper Lantern' is Kenji Sato"), text
    items, text, _ = ask(library, "who are the authors of distant river")
    assert items == ["Kenji Sato", "Owen Brannock"] and text.startswith("The authors of 'Distant River' are"), text


def test_the_longest_book_has_the_most_pages(library):
    items, text, _ = ask(library, "what is the longest book")
    assert items == [max(BOOKS, key=lambda b: b[3])[1]], text
    mine = books_of("Kenji Sato")
    items, text, _ = ask(library, "which is the shortest book by kenji sato")
    assert items == [min(mine, key=lambda b: b[3])[1]], text


def test_a_country_named_by_its_adjective(library):
    """ "irish authors": the authors from Ireland (general English adjectives of countries), in the exact
    answers and where the chain would read the adjective as the country's name with a slip."""
    from_country = {c: {a[0] for a in AUTHORS if a[3] == c} for c in ("Ireland", "Nigeria")}
    items, text, _ = ask(library, "books by irish authors")
    assert items == sorted(b[1] for b in BOOKS if from_country["Ireland"] & set(b[4])), text
    for question in ("which books were written by nigerian authors", "books written by nigerian authors"):
        items, text, _ = ask(library, question)
        assert items == sorted(b[1] for b in BOOKS if from_country["Nigeria"] & set(b[4])), (question, text)


def test_a_list_asked_with_a_number_gives_that_many(library):
    """ "list 3 books by X", "name 2 books published by Y": that many of them, and how many there are."""
    mine = [b[1] for b in books_of("Kenji Sato")]
    items, text, result = ask(library, "list 3 books by kenji sato")
    assert len(items) == 3 and set(items) <= set(mine) and result["total"] == len(mine), text
    assert text.startswith(f"Three of the {number_words(len(mine))} books"), text
    theirs = [b[1] for b in BOOKS if b[5] == "Quillstone"]
    items, text, result = ask(library, "name 2 books published by quillstone")
    assert len(items) == 2 and set(items) <= set(theirs) and result["total"] == len(theirs), text
