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
