"""A question's topic written with a typo ("who directed crimson gardn"), in a graph whose labels the
exact answers' linker does not hold (no hub type, or a name outside the hubs' catalog): the question's
words that no label writes are read as the label word one or two edits away (same first letter), and the
labels are searched again in the question so corrected. Only a label that keeps at least half of its
words as written, or one long word, is taken: a corrected word alone ("moves" for "movies") names nothing."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from kgqa.question.components import STOP_WORDS

_WORD = re.compile(r"[a-z0-9][a-z0-9'\-]*")
#: Shortest question word read as a typo (shorter ones are as often another word as a slip).
MIN_TYPO_LENGTH = 4
#: How close a label word must be (rapidfuzz ratio: "gardn" / "garden" 91, two edits in ten letters 80).
MIN_SIMILARITY = 80
#: A label made of one corrected word is taken only from this length on ("inceptoin").
MIN_SINGLE_WORD_LABEL = 7
#: At most this many distinct label words are held (past it a question is not corrected).
MAX_WORDS = 500_000


@dataclass(frozen=True)
class Spelled:
    """The question with its typos corrected, and where each corrected word stands in both texts."""

    text: str
    fixes: tuple[tuple[int, int, int, int], ...]  # (start, end) as written, (start, end) as corrected
    shifts: tuple[tuple[int, int, int, int], ...]  # every word: as written, as corrected

    def written_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the question as written that the corrected span [start, end) covers."""
        first = next(w for w in self.shifts if w[3] > start)
        last = [w for w in self.shifts if w[2] < end][-1]
        return first[0], last[1]

    def corrected_words(self, start: int, end: int) -> int:
        """How many corrected words lie inside the corrected span [start, end)."""
        return sum(1 for f in self.fixes if start <= f[2] and f[3] <= end)


class LabelSpelling:
    """The words of a graph's labels (lower case), for reading a question's words written with a typo."""

    def __init__(self, labels: Iterable[str]) -> None:
        words = {w for label in labels for w in _WORD.findall(label.lower())}
        self.words = words if len(words) <= MAX_WORDS else set()
        self._by_first: dict[str, list[str]] = {}
        for w in self.words:
            if len(w) >= MIN_TYPO_LENGTH - 1:
                self._by_first.setdefault(w[0], []).append(w)

    def correct(self, question: str, keep: frozenset[str] = frozenset()) -> Spelled | None:
        """`question` with each word that no label writes (and that is no function word nor one of
        `keep`, the graph's own predicate and type words) read as its closest label word; None when
        no word changes."""
        low = question.lower()
        out: list[str] = []
        fixes: list[tuple[int, int, int, int]] = []
        shifts: list[tuple[int, int, int, int]] = []
        at = 0
        length = 0
        for m in _WORD.finditer(low):
            out.append(low[at : m.start()])
            length += m.start() - at
            word = m.group(0)
            better = self._nearest(word, keep)
            new = better or word
            shifts.append((m.start(), m.end(), length, length + len(new)))
            if better:
                fixes.append(shifts[-1])
            out.append(new)
            length += len(new)
            at = m.end()
        out.append(low[at:])
        if not fixes:
            return None
        return Spelled("".join(out), tuple(fixes), tuple(shifts))

    def takes(self, label: str, spelled: Spelled, start: int, end: int) -> bool:
        """Whether `label`, found at [start, end) of the corrected question, may stand for what the user
        wrote: half of its words or more as written, or a single long word."""
        words = _WORD.findall(label.lower())
        fixed = spelled.corrected_words(start, end)
        if not words or fixed == 0:
            return False
        if len(words) == 1:
            return len(words[0]) >= MIN_SINGLE_WORD_LABEL
        return fixed * 2 <= len(words)

    def slip_beside(self, question: str, start: int, end: int, keep: frozenset[str] = frozenset()) -> bool:
        """Whether the word right before [start, end) of `question` or right after it is one that
        `correct` would read as a label word ("bitter parade *reurns*": a longer title's slip)."""
        low = question.lower()
        before = _WORD.findall(low[:start])
        after = _WORD.match(low, end + 1) if low[end : end + 1] == " " else None
        words = ([before[-1]] if before and low[:start].endswith(before[-1] + " ") else []) + (
            [after.group(0)] if after else []
        )
        return any(self._nearest(w, keep) is not None for w in words)

    def _nearest(self, word: str, keep: frozenset[str]) -> str | None:
        if len(word) < MIN_TYPO_LENGTH or word in self.words or word in STOP_WORDS or word in keep:
            return None
        if not word.isalpha() or (word.endswith("s") and word[:-1] in keep):
            return None
        choices = self._by_first.get(word[0], [])
        found = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=MIN_SIMILARITY)
        return found[0] if found else None
