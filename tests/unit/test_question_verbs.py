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
