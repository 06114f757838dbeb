"""A user's own film graph whose node tables have no label property (the primary key is the name, as
data engineers often write them), asked the way people type: lower case, a typo, "who <verb> <title>",
counts restricted by a person, a year bound. Everything is read in place through the inferred mapping.
The same films loaded as triples (`kgqa load`) answer the everyday wordings alike."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import kuzu
import pytest

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.graph.layout import layout_of

FILMS = [("Cold Orchard", 2004), ("Harbour Lights", 1998), ("Glass Rivers", 2015), ("The Salt Road", 2011)]
DIRECTED = [("Ines Moreau", "Cold Orchard"), ("Ines Moreau", "Harbour Lights"), ("Omar Haddad", "Glass Rivers")]
DIRECTED += [("Omar Haddad", "The Salt Road")]
ACTED = [("Lena Voss", "Cold Orchard"), ("Raj Patel", "Cold Orchard"), ("Lena Voss", "Harbour Lights")]
ACTED += [("Tom Akers", "Harbour Lights"), ("Raj Patel", "Glass Rivers"), ("Tom Akers", "The Salt Road")]
ACTED += [("Ines Moreau", "Glass Rivers")]  # a director who also acts: counts must follow the verb asked
MINUTES = {"Cold Orchard": 104, "Harbour Lights": 97, "Glass Rivers": 121, "The Salt Road": 88}
GENRES = [("Cold Orchard", "Drama"), ("Harbour Lights", "Thriller"), ("Glass Rivers", "Drama")]
GENRES += [("The Salt Road", "Western")]


def make_films(path: Path) -> None:
    """The user's graph: names as primary keys, no label property, people's edges pointing at films."""
    conn = kuzu.Connection(kuzu.Database(str(path)))
    conn.execute("CREATE NODE TABLE Film(name STRING PRIMARY KEY, released INT64, minutes INT64)")
    conn.execute("CREATE NODE TABLE Person(name STRING PRIMARY KEY)")
    conn.execute("CREATE NODE TABLE Genre(name STRING PRIMARY KEY)")
    conn.execute("CREATE REL TABLE DIRECTED(FROM Person TO Film)")
    conn.execute("CREATE REL TABLE ACTED_IN(FROM Person TO Film)")
    conn.execute("CREATE REL TABLE HAS_GENRE(FROM Film TO Genre)")
    for name, year in FILMS:
        conn.execute("CREATE (:Film {name: $n, released: $y, minutes: $m})", {"n": name, "y": year, "m": MINUTES[name]})
    for person in sorted({p for p, _ in DIRECTED + ACTED}):
        conn.execute("CREATE (:Person {name: $n})", {"n": person})
    for genre in sorted({g for _, g in GENRES}):
        conn.execute("CREATE (:Genre {name: $n})", {"n": genre})
    for rel, pairs in (("DIRECTED", DIRECTED), ("ACTED_IN", ACTED)):
        for person, film in pairs:
            conn.execute(
                f"MATCH (p:Person {{name: $p}}), (f:Film {{name: $f}}) CREATE (p)-[:{rel}]->(f)",
                {"p": person, "f": film},
            )
    for film, genre in GENRES:
        conn.execute(
            "MATCH (f:Film {name: $f}), (g:Genre {name: $g}) CREATE (f)-[:HAS_GENRE]->(g)", {"f": film, "g": genre}
        )


def indexed_in_place(path: Path, hub_type: str, embedder) -> Iterator[Workspace]:
    """The user's database indexed in place with `hub_type` as hubs, then opened read-only (a fixture's body)."""
    ws = Workspace(Settings(db_path=path), embedder=embedder)
    try:
        ws.build_index(IndexParams(hub_types=(hub_type,)))
    finally:
        ws.close()
    ws = Workspace(Settings(db_path=path), read_only=True, embedder=embedder)
    yield ws
    ws.close()


def made_and_indexed(tmp_path_factory, name: str, make, hub_type: str, embedder) -> Iterator[Workspace]:
    """A user's database written by `make` in a new directory, indexed in place (a fixture's body)."""
    path = tmp_path_factory.mktemp(name) / f"{name}.kuzu"
    make(path)
    yield from indexed_in_place(path, hub_type, embedder)


def result_items(ws: Workspace, question: str) -> list[str]:
    """The answer's `result` as sorted strings: its items, or its one value (direct strategy, no topic)."""
    answer = ws.ask(question, RetrievalParams(strategy="direct"))
    result = answer.result or {}
    items = result.get("items") or ([result["value"]] if result.get("value") is not None else [])
    return sorted(str(i) for i in items)


@pytest.fixture(scope="module")
def films(tmp_path_factory, embedder):
    path = tmp_path_factory.mktemp("films") / "films.kuzu"
    make_films(path)
    yield from indexed_in_place(path, "Film", embedder)


def test_a_table_without_a_label_is_named_by_its_key(films):
    found = layout_of(films.store).labels_in_text("who starred in cold orchard", 3, 10)
    assert [(e.id, e.label) for e in found] == [("Cold Orchard", "Cold Orchard")]


@pytest.mark.parametrize(
    "question, expected",
    [
        ("who directed cold orchard?", ["Ines Moreau"]),  # lower case: "directed" is the verb, not the title
        ("Who directed Cold Orchard?", ["Ines Moreau"]),
        ("who direkted cold orchard", ["Ines Moreau"]),
        ("who starred in cold orchard", ["Lena Voss", "Raj Patel"]),  # the cast, not the director
        ("when was harbour lights released", ["1998"]),
        ("which films did ines moreau direct?", ["Cold Orchard", "Harbour Lights"]),
    ],
)
def test_questions_typed_lower_case_on_a_graph_without_labels(films, question, expected):
    assert result_items(films, question) == expected


def test_the_people_pointing_at_a_film_are_named_by_what_they_did(films):
    """`Person -DIRECTED-> Film` read from the film is its "director", not "person (directed)"."""
    assert {"director", "actor"} <= set(layout_of(films.store).predicates())
    answer = films.ask("how many films did ines moreau direct?", RetrievalParams(strategy="direct"))
    assert "the director Ines Moreau" in answer.answer and "person" not in answer.answer, answer.answer


@pytest.mark.parametrize(
    "question, count",
    [
        ("how many films did ines moreau direct?", 2),  # the verb's attribute, not the one she holds most
        ("how many films has ines moreau acted in?", 1),
        ("how many films were released in 2004?", 1),  # "released" dates the films: no "year" in its name
        ("how many films came out before 2005?", 2),
        ("how many films were released after 2000?", 3),
    ],
)
def test_counts_over_the_whole_graph_with_a_person_or_a_year_bound(films, question, count):
    answer = films.ask(question, RetrievalParams(strategy="direct"))
    assert answer.result["operation"] == "count" and answer.result["value"] == count, answer.answer


def test_a_missing_title_names_the_closest_hub_labels(films):
    answer = films.ask("who directed 'Blue Meridian Station'?", RetrievalParams(strategy="direct"))
    assert answer.result.get("missing") == "Blue Meridian Station", answer.answer
    closest = answer.result["closest"]
    assert closest and all(closest) and set(closest) <= {f for f, _ in FILMS} | {p for p, _ in DIRECTED + ACTED}


def write_films_csv(path: Path) -> None:
    """The same films as a triples file for `kgqa load` (films as subjects, forward predicates)."""
    rows = [("director", p, f, "Person", "false") for p, f in DIRECTED]
    rows += [("cast member", p, f, "Person", "false") for p, f in ACTED]
    rows += [("genre", g, f, "Genre", "false") for f, g in GENRES]
    rows += [("release year", str(y), f, "", "true") for f, y in FILMS]
    rows += [("minutes", str(m), f, "", "true") for f, m in MINUTES.items()]
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(
            ["subject", "predicate", "object", "subject_label", "subject_types", "object_label", "object_types"]
            + ["object_is_literal"]
        )
        for pred, obj, film, obj_type, literal in rows:
            oid = obj if literal == "true" else "e:" + obj
            label = "" if literal == "true" else obj
            w.writerow(["f:" + film, pred, oid, film, "Film", label, obj_type, literal])


@pytest.fixture(scope="module", params=["property graph", "triples"])
def either_layout(request, tmp_path_factory, embedder):
    if request.param == "property graph":
        return request.getfixturevalue("films")
    path = tmp_path_factory.mktemp("films_triples") / "films.kuzu"
    ws = Workspace.init(Settings(db_path=path), embedder=embedder)
    try:
        source = path.parent / "films.csv"
        write_films_csv(source)
        ws.load(source)
        ws.build_index(IndexParams(hub_types=("Film",)))
    finally:
        ws.close()
    ws = Workspace(Settings(db_path=path), read_only=True, embedder=embedder)
    request.addfinalizer(ws.close)
    return ws


@pytest.mark.parametrize(
    "question, expected",
    [
        ("which films has lena voss been in", ["Cold Orchard", "Harbour Lights"]),  # "films" for Film hubs
        ("films released after 2000", ["Cold Orchard", "Glass Rivers", "The Salt Road"]),  # no question word
        ("who acted with raj patel", ["Ines Moreau", "Lena Voss"]),  # co-actors, not raj patel's films
    ],
)
def test_everyday_wordings_on_either_layout(either_layout, question, expected):
    assert result_items(either_layout, question) == expected


def test_yes_no_about_one_film_and_a_count_by_the_verb_on_either_layout(either_layout):
    yes = either_layout.ask("is cold orchard a drama?", RetrievalParams(strategy="direct"))
    assert yes.result["value"] == "yes", yes.answer
    no = either_layout.ask("is cold orchard a western?", RetrievalParams(strategy="direct"))
    assert no.result["value"] == "no" and "Drama" in no.answer, no.answer
    acted = either_layout.ask("did raj patel act in harbour lights?", RetrievalParams(strategy="direct"))
    assert acted.result["value"] == "no", acted.answer  # a verdict, not the list a relation chain reaches
    minutes = either_layout.ask("how many minutes does glass rivers have?", RetrievalParams(strategy="direct"))
    assert minutes.result["value"] == 121, minutes.answer  # the number stated, not one value counted
    count = either_layout.ask("how many films did ines moreau direct", RetrievalParams(strategy="direct"))
    assert count.result["value"] == 2, count.answer


def test_an_index_of_two_hub_types_answers_from_the_type_the_question_names(tmp_path, embedder):
    path = tmp_path / "two_types.kuzu"
    ws = Workspace.init(Settings(db_path=path), embedder=embedder)
    try:
        write_films_csv(tmp_path / "films.csv")
        ws.load(tmp_path / "films.csv")
        ws.build_index(IndexParams(hub_types=("Film", "Person")))
        count = ws.ask("how many films did ines moreau direct", RetrievalParams(strategy="direct"))
        assert count.result["value"] == 2 and "[query]" in count.answer, count.answer
        later = ws.ask("films released after 2000", RetrievalParams(strategy="direct"))
        assert sorted(later.result["items"]) == ["Cold Orchard", "Glass Rivers", "The Salt Road"], later.answer
    finally:
        ws.close()


@pytest.mark.parametrize(
    "question, operation, items",
    [
        ("how many directors are there", "count", ["Ines Moreau", "Omar Haddad"]),  # the whole graph's
        ("list all genres", "list", ["Drama", "Thriller", "Western"]),
        ("how many directors made dramas", "count", ["Ines Moreau", "Omar Haddad"]),  # "made": the directors'
    ],
)
def test_distinct_values_over_the_whole_graph_on_either_layout(either_layout, question, operation, items):
    # one hub kept by retrieval: the answer must still count every film's values, not the one retrieved
    answer = either_layout.ask(question, RetrievalParams(strategy="direct", hubs_to_keep=1))
    assert answer.result["operation"] == operation and sorted(answer.result["items"]) == items, answer.answer
    if operation == "count":
        assert answer.result["value"] == len(items), answer.answer
