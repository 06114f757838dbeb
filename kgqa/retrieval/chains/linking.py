"""The topic entity of a question that names none: the entities whose whole label the question
contains, as whole words; the longest such label wins (a title ending in "2" beats the tag "2"). Where
it names none as written, one it names in the plural ("westerns")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from kgqa.answering.words import singular
from kgqa.graph.layout import layout_of
from kgqa.graph.store import GraphStore
from kgqa.retrieval.chains.label_index import LabelIndex
from kgqa.retrieval.chains.schema import TypeSet, types_of
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


def labels_in(store: GraphStore, text: str, index: LabelIndex | None) -> list[Entity]:
    """The entities whose label `text` contains from one of its words, longest first: looked up in the
    graph's labels in memory (`index`) where there is one, else searched in the graph."""
    if index is not None:
        return index.in_text(text, CANDIDATES)
    return layout_of(store).labels_in_text(text.lower(), MIN_LABEL_LENGTH, CANDIDATES)


#: Words in the plural each read alone as their singular when a question's plural topic is looked up.
MAX_PLURAL_READINGS = 4


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
    # each word as its singular, and the question with one plural only read as singular (a name's own
    # last letter, "tomas ibarras", is no plural ending)
    low = question.lower()
    plurals = [m for m in re.finditer(r"[a-z]+s\b", low) if len(m.group(0)) > 3][:MAX_PLURAL_READINGS]
    texts = [singular_text] + [low[: m.start()] + singular(m.group(0)) + low[m.end() :] for m in plurals]
    found = [
        e
        for text in dict.fromkeys(texts)
        for e in labels_in(store, text, index)
        if not e.is_literal
        and not all(w in vocabulary or len(w) < 3 for w in re.findall(r"[a-z0-9]+", e.label.lower()))
    ]
    return _longest(store, found, lambda label: _plural_mention(question, label))


def _plural_mention(question: str, label: str) -> tuple[int, int] | None:
    """Where `label` stands in `question` with its last word in the plural ("westerns", "comedies")."""
    low = label.lower()
    if low[-1:].isdigit():
        return None  # "the 1990s" is a decade, not the year 1990 in the plural
    stem = re.escape(low[:-1]) + "(?:y|ies)" if low.endswith("y") else re.escape(low) + "(?:s|es)"
    m = re.search(rf"(?<!\w){stem}(?!\w)", question.lower())
    return (m.start(), m.end()) if m else None


def link_topic(store: GraphStore, question: str, index: LabelIndex | None = None) -> TopicMention | None:
    """The longest entity label the question names as whole words (non-literals before literals of
    the same length; every entity with that label belongs to the mention), or None. With `index` (the
    graph's labels in memory) the labels are looked up there instead of searched in the graph."""
    return _longest(store, labels_in(store, question, index), lambda label: find_mention(question, label))


def _longest(
    store: GraphStore, found: list[Entity], locate: Callable[[str], tuple[int, int] | None]
) -> TopicMention | None:
    """The mention of the longest label of `found` that `locate` places in the question (every entity with
    that label belongs to it; non-literals before literals), or None."""
    best: list[Entity] = []
    span: tuple[int, int] | None = None
    for e in found:
        where = locate(e.label)
        if where is None:
            continue
        if span is None or len(e.label) > len(best[0].label):
            best, span = [e], where
        elif len(e.label) == len(best[0].label) and e.label.lower() == best[0].label.lower():
            best.append(e)
    if not best or span is None:
        return None
    entities = [e for e in best if not e.is_literal] or best
    types = types_of(layout_of(store), entities)
    return TopicMention(tuple(e.id for e in entities), entities[0].label, types, span[0], span[1])
