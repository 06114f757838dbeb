"""The topic entity of a question that names none: the entities whose whole label the question
contains, as whole words; the longest such label wins (a title ending in "2" beats the tag "2"). Where
it names none as written, one it names in the plural ("westerns")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgqa.answering.words import singular
from kgqa.graph.layout import layout_of
from kgqa.graph.store import GraphStore
from kgqa.retrieval.chains.label_index import LabelIndex
from kgqa.retrieval.chains.schema import TypeSet, type_set
from kgqa.types import Entity

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
    typo: bool = False  # written with a typo ("lonley letters"), linked by the exact answers' linker


def find_mention(question: str, label: str) -> tuple[int, int] | None:
    """Where `label` occurs in `question` as whole words (case-insensitive), or None."""
    if not label:
        return None
    m = re.search(rf"(?<!\w){re.escape(label.lower())}(?!\w)", question.lower())
    return (m.start(), m.end()) if m else None


def link_plural_topic(
    store: GraphStore, question: str, index: LabelIndex | None, vocabulary: frozenset[str]
) -> TopicMention | None:
    """ "which directors made *westerns*", "who acted in *comedies*": where the question names no label as
    written, the longest label it names in the plural (each word read as its singular), unless the label
    is made only of the graph's predicate and type words (`vocabulary`: "movies" is no topic) or function
    words; the mention spans the plural as written."""
    singular_text = re.sub(r"[A-Za-z]+", lambda m: singular(m.group(0).lower()), question)
    if singular_text == question.lower():
        return None
    if index is not None:
        found = index.in_text(singular_text, CANDIDATES)
    else:
        found = layout_of(store).labels_in_text(singular_text, MIN_LABEL_LENGTH, CANDIDATES)
    best: list[Entity] = []
    span: tuple[int, int] | None = None
    for e in found:
        words = re.findall(r"[a-z0-9]+", e.label.lower())
        if e.is_literal or all(w in vocabulary or len(w) < 3 for w in words):
            continue
        where = _plural_mention(question, e.label)
        if where is None:
            continue
        if span is None or len(e.label) > len(best[0].label):
            best, span = [e], where
        elif e.label.lower() == best[0].label.lower():
            best.append(e)
    if not best or span is None:
        return None
    types: set[str] = set()
    for e in best:
        types |= type_set(e.types, e.is_literal)
    return TopicMention(tuple(e.id for e in best), best[0].label, frozenset(types), span[0], span[1])


def _plural_mention(question: str, label: str) -> tuple[int, int] | None:
    """Where `label` stands in `question` with its last word in the plural ("westerns", "comedies")."""
    low = label.lower()
    stem = re.escape(low[:-1]) + "(?:y|ies)" if low.endswith("y") else re.escape(low) + "(?:s|es)"
    m = re.search(rf"(?<!\w){stem}(?!\w)", question.lower())
    return (m.start(), m.end()) if m else None


def link_topic(store: GraphStore, question: str, index: LabelIndex | None = None) -> TopicMention | None:
    """The longest entity label the question names as whole words (non-literals before literals of
    the same length; every entity with that label belongs to the mention), or None. With `index` (the
    graph's labels in memory) the labels are looked up there instead of searched in the graph."""
    if index is not None:
        found = index.in_text(question, CANDIDATES)
    else:
        found = layout_of(store).labels_in_text(question.lower(), MIN_LABEL_LENGTH, CANDIDATES)
    best: list[Entity] = []
    span: tuple[int, int] | None = None
    for e in found:
        where = find_mention(question, e.label)
        if where is None:
            continue
        if span is None or len(e.label) > len(best[0].label):
            best, span = [e], where
        elif len(e.label) == len(best[0].label) and e.label.lower() == best[0].label.lower():
            best.append(e)
    if not best or span is None:
        return None
    entities = [e for e in best if not e.is_literal] or best
    types: set[str] = set()
    for e in entities:
        types |= type_set(e.types, e.is_literal)
    return TopicMention(tuple(e.id for e in entities), entities[0].label, frozenset(types), span[0], span[1])
