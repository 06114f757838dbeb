"""The topic entity of a question that names none: the entities whose whole label the question
contains, as whole words; the longest such label wins (a title ending in "2" beats the tag "2")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgqa.graph.store import GraphStore
from kgqa.retrieval.chains.schema import TypeSet, type_set

#: Shorter labels are too often parts of ordinary words to name a topic.
MIN_LABEL_LENGTH = 3
CANDIDATES = 200


@dataclass(frozen=True)
class TopicMention:
    """The entities a question names by one label, and where the label stands in the question."""

    ids: tuple[str, ...]
    label: str
    types: TypeSet
    start: int
    end: int


def find_mention(question: str, label: str) -> tuple[int, int] | None:
    """Where `label` occurs in `question` as whole words (case-insensitive), or None."""
    if not label:
        return None
    m = re.search(rf"(?<!\w){re.escape(label.lower())}(?!\w)", question.lower())
    return (m.start(), m.end()) if m else None


def link_topic(store: GraphStore, question: str) -> TopicMention | None:
    """The longest entity label the question names as whole words (non-literals before literals of
    the same length; every entity with that label belongs to the mention), or None."""
    rows = store.run(
        "chains/labels_in_text", {"text": question.lower(), "min_len": MIN_LABEL_LENGTH, "limit": CANDIDATES}
    )
    best: list[list] = []
    span: tuple[int, int] | None = None
    for row in rows:
        where = find_mention(question, row[1] or "")
        if where is None:
            continue
        if span is None or len(row[1]) > len(best[0][1]):
            best, span = [row], where
        elif len(row[1]) == len(best[0][1]) and row[1].lower() == best[0][1].lower():
            best.append(row)
    if not best or span is None:
        return None
    entities = [r for r in best if not r[3]] or best
    types: set[str] = set()
    for r in entities:
        types |= type_set(r[2], bool(r[3]))
    return TopicMention(tuple(r[0] for r in entities), entities[0][1], frozenset(types), span[0], span[1])
