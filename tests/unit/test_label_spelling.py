"""Reading a question's words written with a typo as the graph's label words (kgqa/retrieval/chains/
spelling.py): which words change, where the corrected label stands in the question as written, and
which corrected labels are taken."""

from __future__ import annotations

from kgqa.retrieval.chains.spelling import LabelSpelling

LABELS = ["Crimson Garden", "Winter Garden", "Moves", "Inception", "Olga Okafor"]


def test_a_word_no_label_writes_becomes_the_label_word_it_is_near():
    spelled = LabelSpelling(LABELS).correct("Who directed crimson gardn?")
    assert spelled is not None
    assert spelled.text == "who directed crimson garden?"
    start = spelled.text.index("crimson garden")
    # the corrected label's span, mapped back onto the question as the user wrote it
    assert spelled.written_span(start, start + len("crimson garden")) == (13, 26)
    assert "Who directed crimson gardn?"[13:26] == "crimson gardn"


def test_words_labels_write_function_words_and_the_graphs_own_vocabulary_stay():
    spelling = LabelSpelling(LABELS)
    assert spelling.correct("who directed crimson garden") is None  # every word as labelled
    assert spelling.correct("which movies did olga okafor make", keep=frozenset({"movie"})) is None
    spelled = spelling.correct("which movies did olga okafr make")
    # "movies" is no word of this graph: read as "moves", which a label alone does not take (below)
    assert spelled is not None and spelled.text == "which moves did olga okafor make"
    at = spelled.text.index("olga okafor")
    assert spelled.written_span(at, at + len("olga okafor")) == (17, 27)
    assert spelling.takes("Olga Okafor", spelled, at, at + len("olga okafor"))
    assert spelling.correct("which movis did olga okafor make", keep=frozenset({"movis"})) is None


def test_a_corrected_label_is_taken_only_with_half_its_words_as_written_or_one_long_word():
    spelling = LabelSpelling(LABELS)
    one = spelling.correct("who directed crimson gardn")
    assert one is not None
    at = one.text.index("crimson garden")
    assert spelling.takes("Crimson Garden", one, at, at + 14)
    two = spelling.correct("who directed crimsn gardn")
    assert two is not None and "crimson garden" in two.text
    at = two.text.index("crimson garden")
    assert not spelling.takes("Crimson Garden", two, at, at + 14)  # both words guessed: no answer, no guess
    short = spelling.correct("what are movs")
    assert short is not None and short.text == "what are moves"
    assert not spelling.takes("Moves", short, 9, 14)  # one short word guessed
    long = spelling.correct("who made inceptoin")
    assert long is not None and long.text == "who made inception"
    assert long and spelling.takes("Inception", long, 9, 18)
    exact = LabelSpelling(LABELS).correct("who made inception and okafr")
    assert exact is not None and not spelling.takes("Inception", exact, 9, 18)  # not a corrected word
