"""General English about verbs shared by the question readers: stems and agent nouns."""

from __future__ import annotations

from kgqa.question.components import extract_components
from kgqa.question.verbs import agent_words, share_a_stem, stems


def test_forms_of_one_verb_share_a_stem():
    assert stems("wrote") == stems("written") == {"write"}
    assert "direc" in stems("directed") & stems("director")
    assert share_a_stem("how many films did x write", "screenwriter")  # a stem inside the other word
    assert share_a_stem("films x has written", "person (wrote)")
    assert not share_a_stem("how many films did x direct", "cast member")


def test_agent_nouns_are_added_to_a_verb():
    assert agent_words("cast") == "cast acted actor cast"
    assert agent_words("director") == "director"  # a noun already


def test_the_word_after_who_is_its_own_phrase_in_lower_case():
    assert extract_components("who directed cold orchard?") == ["directed", "cold orchard"]
    assert extract_components("Who directed Cold Orchard?") == ["Cold Orchard", "directed"]
    assert not any("came" in c for c in extract_components("which movies came out before 1960"))


def test_roles_joined_by_and_name_each_of_a_values_attributes():
    from kgqa.answering.exact import joined_roles

    film = ["director", "screenwriter", "cast member"]
    assert joined_roles("which movies did   both write and act in", film) == ["screenwriter", "cast member"]
    assert joined_roles("films   wrote and directed", film) == ["screenwriter", "director"]
    assert joined_roles("movies   acted in and also directed", film) == ["cast member", "director"]
    assert joined_roles("which movies did   write and act in", ["written_by", "starred_actors"]) == [
        "written_by",
        "starred_actors",
    ]
    # one role, roles not joined, or "and" between other words: nothing joined
    assert joined_roles("how many films did   direct", film) == []
    assert joined_roles("which movies did   act in and who directed them", film) == []
    assert joined_roles("films   directed and directed", film) == []
    assert joined_roles("papers by   and Ingo Weber", ["authors", "venue"]) == []


def test_a_relation_verb_names_its_doer():
    from kgqa.question.verbs import agent_noun

    doers = {
        "directed": "director",
        "WROTE": "writer",
        "acted in": "actor",
        "starred in": "actor",
        "produces": "producer",
        "composed": "composer",
        "studied at": "student",
        "author of": "author",
        "is member of": "member",
    }
    assert {label: agent_noun(label) for label in doers} == doers
    # no usual doer noun, the passive, a place or time after the verb, "has X": the object is the X
    for label in ["recorded", "written by", "directed by", "published in", "founded in", "made of", "has author"]:
        assert agent_noun(label) is None, label


def test_a_rel_read_backwards_is_named_after_its_doer():
    from kgqa.assets import CatalogName
    from kgqa.graph.mapping import GraphMapping, NodeMap, RelMap

    def rel(name: str, src: str, predicate: str = "") -> RelMap:
        return RelMap(
            CatalogName(name), predicate or name.lower().replace("_", " "), ((CatalogName(src), CatalogName("Movie")),)
        )

    def names(*rels: RelMap) -> list[str]:
        tables = {str(a) for r in rels for a, _ in r.pairs} | {"Movie"}
        nodes = {t: NodeMap(CatalogName(t), CatalogName("name"), None, ()) for t in tables}
        mapping = GraphMapping(nodes, {str(r.table): r for r in rels}, inverse_into=frozenset({"Movie"}))
        return [reading[3] for reading in mapping.backward_readings()]

    assert names(rel("DIRECTED", "Person"), rel("ACTED_IN", "Person"), rel("WROTE", "Person")) == [
        "director",
        "actor",
        "writer",
    ]
    assert names(rel("WROTE", "Author")) == ["author"]  # the table is one of the verb's doer nouns
    assert names(rel("RECORDED", "Artist")) == ["artist"]  # no doer noun: the table's name
    # two readings that would share a name keep the table's name with the rel's
    assert names(rel("ACTED_IN", "Person"), rel("STARRED_IN", "Person")) == [
        "person (acted in)",
        "person (starred in)",
    ]
    assert names(rel("LIKES", "User"), rel("RATED", "User")) == ["user (likes)", "user (rated)"]


def test_a_label_in_the_passive_names_its_doer():
    from kgqa.question.verbs import passive_doer

    assert passive_doer("written by") == "writer" and passive_doer("published_by") == "publisher"
    assert passive_doer("directed by") == "director"
    assert passive_doer("starred actors") is None and passive_doer("written") is None
    assert passive_doer("owned by") == "owner" and passive_doer("located by") is None  # no usual doer noun
