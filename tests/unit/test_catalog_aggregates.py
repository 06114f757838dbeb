"""The catalog's own aggregates (what exact answers use on a property graph): hubs meeting every
constraint and hubs per value, from hand-made facts; and a hub type read in the plural."""

from __future__ import annotations

from kgqa.answering.catalog import Catalog, Fact, Path
from kgqa.question.meaning import names_hubs
from kgqa.types import Entity, Triple

DIRECTOR, YEAR = Path("", "director"), Path("", "release year")


def catalog() -> Catalog:
    cat = Catalog("Movie", hubs={"1": "The Quiet Harbour", "2": "Glass Orchard", "3": "Northern Signal"})
    for hub, attr, path, vid, value in [
        ("1", "director", DIRECTOR, "10", "Ada Whitcombe"),
        ("2", "director", DIRECTOR, "10", "Ada Whitcombe"),
        ("3", "director", DIRECTOR, "13", "Oren Balogun"),
        ("3", "director", DIRECTOR, "10", "Ada Whitcombe"),
        ("1", "release year", YEAR, "y1999", "1999"),
        ("2", "release year", YEAR, "y2003", "2003"),
        ("3", "release year", YEAR, "y2003", "2003"),
    ]:
        t = Triple(Entity(hub, cat.hubs[hub]), attr, Entity(vid, value))
        fact = Fact(hub, attr, path, vid, value, (t,))
        cat.facts.append(fact)
        cat.by_hub[hub].append(fact)
        if path not in cat.paths.setdefault(attr, []):
            cat.paths[attr].append(path)
    return cat


def test_hubs_meeting_every_constraint_by_label():
    cat = catalog()
    assert cat.hubs_meeting([(DIRECTOR, ["10"])]) == [
        ("2", "Glass Orchard"),
        ("3", "Northern Signal"),
        ("1", "The Quiet Harbour"),
    ]
    assert cat.hubs_meeting([(DIRECTOR, ["10"]), (YEAR, ["y2003"])]) == [
        ("2", "Glass Orchard"),
        ("3", "Northern Signal"),
    ]
    assert cat.hubs_meeting([(DIRECTOR, ["13"]), (YEAR, ["y1999"])]) == []
    assert cat.hubs_meeting([(YEAR, ["10"])]) == []  # a value id on another path


def test_hubs_per_value_most_first():
    cat = catalog()
    assert cat.hubs_per_value(["1", "2", "3"], "director") == [
        ("Ada Whitcombe", 3, ["1", "2", "3"]),
        ("Oren Balogun", 1, ["3"]),
    ]
    assert cat.hubs_per_value(["1", "3"], "release year") == [("1999", 1, ["1"]), ("2003", 1, ["3"])]
    assert cat.hubs_per_value(["1"], "genre") == []


def test_the_hub_type_in_the_plural_names_the_hubs():
    cat = Catalog("Movie")
    assert names_hubs("movies", cat) and names_hubs("movie", cat)
    assert not names_hubs("directors", cat)
    assert names_hubs("studies", Catalog("Study")) and names_hubs("papers", Catalog("Paper"))


def test_what_a_catalog_derives_from_all_its_facts_follows_the_facts_it_holds():
    hubs = {"1": "The Quiet Harbour", "2": "Glass Orchard"}
    cat = Catalog("Movie", hubs=dict(hubs))

    def add(hub: str, attribute: str, vid: str, value: str) -> None:
        t = Triple(Entity(hub, hubs[hub]), attribute, Entity(vid, value))
        cat.facts.append(Fact(hub, attribute, Path("", attribute), vid, value, (t,)))

    add("1", "genre", "G1", "Drama")
    assert cat.attributes() == ["genre"] and cat.first_values("genre", 5) == ["Drama"]
    assert cat.hub_link_attributes() == frozenset()
    add("1", "year", "Y1", "1999")
    add("2", "year", "Y2", "2004")
    add("2", "sequel of", "1", "The Quiet Harbour")
    assert cat.attributes() == ["year", "genre", "sequel of"]  # most frequent first, read again after growth
    assert cat.first_values("year", 1) == ["1999"] and cat.first_values("year", 5) == ["1999", "2004"]
    assert cat.hub_link_attributes() == frozenset({"sequel of"})
    cat.attributes().append("changed by a caller")
    assert cat.attributes() == ["year", "genre", "sequel of"]


def test_people_name_a_hub_type_by_its_everyday_synonyms():
    assert names_hubs("films", Catalog("Movie")) and names_hubs("which films", Catalog("Film"))
    assert names_hubs("articles", Catalog("Paper")) and not names_hubs("films", Catalog("Paper"))
    assert not names_hubs("directors", Catalog("Movie"))


def test_the_dating_attribute_is_named_or_read_from_its_values():
    cat = catalog()
    assert cat.date_attribute() == "release year"  # named "year"
    undated = Catalog("Movie", hubs={"1": "A", "2": "B", "3": "C"})
    for hub, attr, value in [("1", "released", "1999"), ("2", "released", "2003-05-01"), ("3", "released", "2010")]:
        fact = Fact(hub, attr, Path("", attr), f"v{hub}", value, (Triple(Entity(hub), attr, Entity(f"v{hub}")),))
        undated.facts.append(fact)
        undated.paths.setdefault(attr, [Path("", attr)])
    undated.facts.append(Fact("1", "rating", Path("", "rating"), "r", "7", ()))
    assert undated.date_attribute() == "released"  # no "year" or "date" in any name: its values say


def test_of_several_hub_types_the_one_the_question_asks_for():
    from kgqa.question.meaning import hub_type_named

    types = ["Movie", "Person"]
    assert hub_type_named("how many films did x direct", "films", types) == "Movie"
    assert hub_type_named("which people acted in x", "people", types) == "Person"
    assert hub_type_named("the directors of the movies of x", "directors", types) == "Movie"
    assert hub_type_named("who directed x", "directed", types) is None
