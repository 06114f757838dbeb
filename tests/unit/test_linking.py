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


def test_values_found_through_the_start_index_are_those_a_scan_of_every_written_form_finds():
    cat = catalog()
    extra = [("P3", "venue", "V3", "Software Engineering (SE)"), ("P2", "keyword", "K1", "debt")]
    for hub, attr, vid, label in extra:
        fact = Fact(
            hub, attr, Path("", attr), vid, label, (Triple(Entity(hub, PAPERS[hub]), attr, Entity(vid, label)),)
        )
        cat.facts.append(fact)
        cat.values[label.casefold()].append(fact)
    linker = Linker(cat)
    assert "se" in linker.value_keys  # a two-letter acronym: shorter than the index's start
    for q in (
        "Which papers appeared at ICSA in 2019?",
        "papers by ingo weber or Lucía Navarro at the european conference on software architecture",
        "how many papers on debt appeared at SE?",
        "list papers at icsa, ecsa and se",
    ):
        low = q.casefold()
        scanned = {}
        for written, key in linker.value_keys.items():  # what the linker did before it had the index
            i = low.find(written)
            if (
                i >= 0
                and (i == 0 or not low[i - 1].isalnum())
                and (i + len(written) == len(low) or not low[i + len(written)].isalnum())
            ):
                scanned.setdefault(key, (i, i + len(written)))
        found = {m.facts[0].value.casefold(): (m.start, m.end) for m in linker.link(q).values}
        assert scanned and set(found) <= set(scanned), q
        assert all(scanned[k] == span for k, span in found.items()), q
        if q.endswith("at SE?"):
            assert "software engineering (se)" in found and "debt" in found


def test_a_short_unquoted_title_with_a_typo_in_one_of_its_words_links():
    cat = Catalog("Movie", hubs={"M1": "Glass Summer 2", "M2": "Hidden Summer", "M3": "Glass Harbour"})
    linker = Linker(cat)
    for q in ("who directed glas summer 2", "who directed glass sumer 2?", "who directed glass summer 2"):
        links = linker.link(q)
        assert [m.hubs for m in links.hubs] == [["M1"]], (q, links)
    assert linker.link("who directed the summer of love").hubs == []
