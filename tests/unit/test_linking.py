"""Names linked to graph labels without ids (kgqa/question/linking.py), on a small in-memory catalog."""

from __future__ import annotations

from kgqa.answering.catalog import Catalog, Fact, Path
from kgqa.question.linking import Linker
from kgqa.question.meaning import typo_operation
from kgqa.types import Entity, Triple

PAPERS = {
    "P1": "Recovering Microservice Boundaries from Monolith Call Graphs",
    "P2": "Technical Debt in Microservice Migrations",
    "P3": "Technical Debt in Monolith Migrations",
}
VALUES = [
    ("P1", "venue", "V1", "International Conference on Software Architecture (ICSA)"),
    ("P2", "venue", "V1", "International Conference on Software Architecture (ICSA)"),
    ("P3", "venue", "V2", "European Conference on Software Architecture (ECSA)"),
    ("P1", "author", "A1", "Ingo Weber"),
    ("P2", "author", "A2", "Lucía Navarro"),
    ("P1", "publication year", "Y1", "2019"),
]


def catalog() -> Catalog:
    cat = Catalog("Paper", hubs=dict(PAPERS))
    for hub, attr, vid, label in VALUES:
        t = Triple(Entity(hub, PAPERS[hub]), attr, Entity(vid, label))
        fact = Fact(hub, attr, Path("", attr), vid, label, (t,))
        cat.facts.append(fact)
        cat.by_hub[hub].append(fact)
        cat.values[label.casefold()].append(fact)
        cat.paths.setdefault(attr, [Path("", attr)])
    return cat


def test_titles_quoted_partial_lower_case_or_with_a_typo_link_to_their_hub():
    linker = Linker(catalog())
    for q in (
        "Who wrote 'Recovering Microservice Boundaries from Monolith Call Graphs'?",
        "who wrote 'recovering microservice boundaries'",
        "who wrote 'Recovering Microservice Boundaries from Monolith Call Grpahs'?",
        "who wrote recovering microservice boundaries from monolith",
    ):
        links = linker.link(q)
        assert [m.hubs for m in links.hubs] == [["P1"]], q


def test_values_by_acronym_lower_case_and_typo_and_years():
    linker = Linker(catalog())
    links = linker.link("how many papers did ingo webr publish at icsa in 2019")
    assert sorted(m.label for m in links.values) == [
        "Ingo Weber",
        "International Conference on Software Architecture (ICSA)",
    ]
    assert links.years == ["2019"] and not links.unlinked


def test_an_ambiguous_title_returns_candidates_and_an_unknown_name_the_closest_labels():
    linker = Linker(catalog())
    links = linker.link("who wrote 'Technical Debt in Migrations'?")
    assert not links.hubs and links.ambiguous and len(links.ambiguous[0].candidates) == 2
    links = linker.link("How many papers did John Doe publish?")
    assert links.unlinked[0].text == "John Doe" and links.unlinked[0].closest


def test_operation_words_with_a_typo():
    assert typo_operation("cuont the papers at X") == "count"
    assert typo_operation("rnak the X papers by year") == "rank"
    assert typo_operation("comapre X and Y") == "compare"
    assert typo_operation("who wrote X") is None
