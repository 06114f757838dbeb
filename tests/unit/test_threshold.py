"""Counts a question asks each answer to meet ("more than 3 movies"), read by `analyse`."""

from __future__ import annotations

import pytest

from kgqa.answering.question import analyse, meets_threshold


@pytest.mark.parametrize(
    "question, threshold, counted",
    [
        ("which actors appear in more than 3 movies", ("more", 3), "movies"),
        ("Which papers have at least two authors?", ("least", 2), "authors"),
        ("list directors with fewer than 5 films", ("fewer", 5), "films"),
        ("who wrote exactly one paper", ("exactly", 1), "paper"),
    ],
)
def test_a_count_to_meet_is_read(question, threshold, counted):
    plan = analyse(question)
    assert (plan.operation, plan.threshold, plan.counted) == ("threshold", threshold, counted)


@pytest.mark.parametrize(
    "question",
    [
        "Did Lena write more papers than Jonas?",  # a comparison of two named things
        "which actors appear in more than many movies",  # no number
    ],
)
def test_other_questions_set_no_count(question):
    assert analyse(question).operation != "threshold"


def test_how_many_meet_a_count_is_a_counted_threshold():
    plan = analyse("how many papers have more than 3 authors")
    assert (plan.operation, plan.threshold, plan.flags["count"]) == ("threshold", ("more", 3), True)


def test_meeting_a_count():
    assert meets_threshold(4, ("more", 3)) and not meets_threshold(3, ("more", 3))
    assert meets_threshold(3, ("least", 3)) and meets_threshold(2, ("fewer", 3)) and meets_threshold(3, ("most", 3))
    assert meets_threshold(2, ("exactly", 2)) and not meets_threshold(3, ("exactly", 2))
