"""The years a question keeps a chain's ends to ("which films did X direct *after 1990*", "*in the 50s*",
"*between 2000 and 2010*"), for graphs whose exact answers cannot read them (people as the subjects of
their films, a graph past the catalog's ceiling): the phrase's place in the question, which years it
keeps, and how the answer says it. One year ("in 1953") is a value the chain narrows by
(`kgqa/retrieval/chains/values.py`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

_BOUND = re.compile(
    r"\b(after|since|before|until|till|prior to|earlier than|later than)\s+(?:the\s+(?:year\s+)?)?(\d{4})\b", re.I
)
_RANGE = re.compile(r"\b(?:from|between)\s+(?:the\s+years?\s+)?(\d{4})\s*(?:to|and|until|till|-)\s*(\d{4})\b", re.I)
_DECADE = re.compile(r"\b(?:in|from|during)\s+(?:the\s+)?((?:1[89]|20)?\d0)'?s\b", re.I)
_DATE_VERB = re.compile(
    r"\b(?:(?:was|were|is|are|been|be)\s+)?(?:released|published|premiered|issued|dated|came out|come out|out)\s+$",
    re.I,
)
#: A bound's word and the test it puts on a year.
_TESTS = {
    "after": lambda y, edge: y > edge,
    "later than": lambda y, edge: y > edge,
    "since": lambda y, edge: y >= edge,
    "before": lambda y, edge: y < edge,
    "prior to": lambda y, edge: y < edge,
    "earlier than": lambda y, edge: y < edge,
    "until": lambda y, edge: y <= edge,
    "till": lambda y, edge: y <= edge,
}


@dataclass(frozen=True)
class YearWindow:
    """The years `low`..`high` (either open: None) or the bound `word` `edge`, where the question says
    them (`span`) and how the answer says them (`phrase`: "after 1990", "from 1950 to 1959")."""

    span: tuple[int, int]
    phrase: str
    low: int | None = None
    high: int | None = None
    word: str = ""
    edge: int = 0

    def holds(self, year: int) -> bool:
        """Whether `year` is in the window."""
        if self.word:
            return bool(_TESTS[self.word](year, self.edge))
        return (self.low is None or year >= self.low) and (self.high is None or year <= self.high)


def year_window(question: str) -> YearWindow | None:
    """The one window of years the question names, or None (none, or more than one)."""
    found: list[YearWindow] = []
    for m in _RANGE.finditer(question):
        lo, hi = sorted((int(m.group(1)), int(m.group(2))))
        found.append(YearWindow(m.span(), f"from {lo} to {hi}", lo, hi))
    for m in _BOUND.finditer(question):
        word = m.group(1).lower()
        found.append(YearWindow(m.span(), f"{word} {m.group(2)}", word=word, edge=int(m.group(2))))
    for m in _DECADE.finditer(question):
        digits = m.group(1)
        start = int(digits) if len(digits) == 4 else (2000 if int(digits) < 30 else 1900) + int(digits)
        found.append(YearWindow(m.span(), f"from the {start}s", start, start + 9))
    if len(found) != 1:
        return None
    window = found[0]
    # "... *released* after 2000": a verb of the date itself is the window's, not a step to the year
    verb = _DATE_VERB.search(question[: window.span[0]])
    return replace(window, span=(verb.start(), window.span[1])) if verb else window


def year_of(value: str) -> int | None:
    """The year a literal states ("1953", "1953-04-01"), or None."""
    m = re.match(r"\s*(\d{4})", value)
    return int(m.group(1)) if m else None
