"""Values a question names beside its topic (`kgqa/retrieval/chains/values.py`), found with a label
lookup given as a function (here: a fixed list of labels, as the graph's label index would answer)."""

from __future__ import annotations

import re

from kgqa.retrieval.chains.values import blanked, named_values, value_spans
from kgqa.types import Entity

LABELS = [
    Entity("G1", "Drama", ("Genre",)),
    Entity("G2", "Comedy", ("Genre",)),
    Entity("M1", "Last Shadows", ("Movie",)),
    Entity("K1", "director", ("Keyword",)),
    Entity("Y1", "1982", (), True),
    Entity("P1", "Zora W. Delacroix", ("Person",)),
]
VOCABULARY = frozenset({"movie", "movies", "director", "genre", "cast", "member"})


def _find(text: str) -> list[Entity]:
    return [e for e in LABELS if re.search(rf"(?<!\w){re.escape(e.label.lower())}(?!\w)", text)]


def _values(question: str, topic: str):
    start = question.lower().index(topic.lower())
    return named_values(question, (start, start + len(topic)), _find, VOCABULARY)


def test_a_value_is_found_as_written_and_in_the_plural():
    (drama,) = _values("which drama movies did Ada Whitcombe direct", "Ada Whitcombe")
    assert drama.label == "Drama" and drama.words == {"drama"}
    (comedy,) = _values("which comedies did Ada Whitcombe direct", "Ada Whitcombe")
    assert comedy.label == "Comedy" and comedy.words == {"comedies"}


def test_the_word_before_a_value_is_kept_for_its_relation():
    (value,) = _values("films directed by Ada Whitcombe and written by the Last Shadows", "Ada Whitcombe")
    assert value.label == "Last Shadows" and value.lead == "written"


def test_no_values_from_relation_words_literals_or_comparisons():
    assert _values("who is the director of Lonely Letters", "Lonely Letters") == []  # a graph word
    assert _values("which movies of 1982 did Ada Whitcombe direct", "Ada Whitcombe") == []  # a literal
    assert _values("did Ada Whitcombe direct more dramas than comedies", "Ada Whitcombe") == []
    assert _values("drama or comedy: what did Ada Whitcombe direct", "Ada Whitcombe") == []


def test_value_words_are_blanked_in_place():
    (value,) = _values("who acted in both Lonely Letters and Last Shadows", "Lonely Letters")
    text = "who acted in both Lonely Letters and Last Shadows"
    masked = blanked(text, value_spans(text, [value]))
    assert len(masked) == len(text) and "Last" not in masked and masked.startswith("who acted in both Lonely")


def test_a_label_with_its_own_punctuation_is_found():
    """ "zora w. delacroix": the initial's full stop is the label's, not the end of a sentence."""
    (zora,) = _values("which films star both ada whitcombe and zora w. delacroix", "ada whitcombe")
    assert zora.label == "Zora W. Delacroix" and zora.words == {"zora", "w", "delacroix"}
