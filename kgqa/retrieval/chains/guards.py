"""When a relation chain is not the reading of a question: it constrains the answer by other named
values (a venue's acronym, a year, a quoted title besides the topic), negates, compares, ranks or
groups ("how are the papers ... distributed by their publication year").
HubLink's own retrieval and answering handle those."""

from __future__ import annotations

import re

from kgqa.answering.question import asks_yes_no, fix_how_many

_OPERATOR_WORDS = re.compile(
    r"\b(not|no|never|without|except|most|least|more|fewer|fewest|less|than|before|after|between|earliest|latest|"
    r"first|last|oldest|newest|rank|ranked|order|sorted|average|mean|total|sum|per|each|compare|both|either|"
    r"distributed|distribution|grouped|breakdown|highest|lowest|largest|smallest|biggest|greatest|longest|shortest|"
    r"quickest|fastest|slowest|cheapest|tallest|heaviest|lightest)\b|(?<=\w)n[’']t\b",
    re.IGNORECASE,
)
_NAMED_VALUE = re.compile(r"\b\d{2,}s?\b|(?<![A-Za-z])'[^']+'|\"[^\"]+\"|\b[A-Z]{2,}\b")


def declines(question: str, topic_span: tuple[int, int] | None) -> str | None:
    """Why the question is not a plain relation chain from its topic (None when it is one): the words
    outside the topic's name hold an operator or another named value."""
    if asks_yes_no(question):
        return "the question asks yes or no"  # a chain lists what it reaches; the verdict is HubLink's
    rest = question if not topic_span else question[: topic_span[0]] + " " + question[topic_span[1] :]
    rest = re.sub(r"'\s*'|\"\s*\"", " ", rest)  # the quotes around the topic's name
    op = _OPERATOR_WORDS.search(rest)
    if op:
        return f"the question {op.group(0).lower()!r} constrains or compares"
    value = _NAMED_VALUE.search(rest)
    if value:
        return f"the question names another value ({value.group(0)})"
    return None


def counts(question: str) -> bool:
    """Whether the question asks how many ("hw many", "how mny" too; "the number of movies ...", "count the
    movies ...")."""
    return _COUNTS.search(fix_how_many(question)) is not None


_COUNTS = re.compile(
    r"\bhow many\b|^\W*(?:what(?:'s| is| was)\s+)?(?:the\s+)?(?:total\s+)?number of\b|^\W*count\b", re.IGNORECASE
)
