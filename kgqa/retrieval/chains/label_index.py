"""Every entity label of a graph held in memory and found in a question by its first word: linking a
question's topic without scanning the graph's labels per question (`chains/labels_in_text` takes
65-100 ms at 10^6 triples; this index, read once in about a second, answers in well under one)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from kgqa.types import Entity

_TOKEN = re.compile(r"\w+")
#: At most this many labels are held (beyond it the graph is searched per question as before).
MAX_LABELS = 3_000_000


class LabelIndex:
    """Entity labels (lower-cased) by their first word; `in_text` finds those a text contains starting at
    one of its words, the longest first, as `GraphLayout.labels_in_text` orders them."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        self._by_first: dict[str, list[tuple[str, int, Entity]]] = defaultdict(list)
        self.size = 0
        for e in entities:
            low = e.label.lower()
            first = _TOKEN.search(low)
            if first is not None:
                self._by_first[first.group(0)].append((low, first.start(), e))
                self.size += 1

    def labels(self) -> list[str]:
        """Every label held (lower case)."""
        return [label for entries in self._by_first.values() for label, _, _ in entries]

    def in_text(self, text: str, limit: int) -> list[Entity]:
        """The entities whose label `text` contains from the start of one of its words (case-insensitive),
        longest label first, then by id; at most `limit`."""
        low = text.lower()
        found: dict[str, tuple[int, Entity]] = {}
        for word in _TOKEN.finditer(low):
            for label, lead, e in self._by_first.get(word.group(0), ()):
                start = word.start() - lead
                if start >= 0 and low.startswith(label, start):
                    found[e.id] = (len(label), e)
        ordered = sorted(found.values(), key=lambda item: (-item[0], item[1].id))
        return [e for _, e in ordered[:limit]]
