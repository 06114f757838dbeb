"""A relation chain's ends ranked or grouped by one of their values ("Which papers did X publish? Rank
them by publication year", "How many films did X direct per year?"), counted over every end the chain
reaches: what the exact answers give where the graph has their catalog, for graphs past its ceiling."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgqa.answering.question import analyse
from kgqa.answering.words import phrase_score
from kgqa.graph.layout import layout_of
from kgqa.graph.store import GraphStore
from kgqa.retrieval.chains.schema import LITERAL, GraphSchema
from kgqa.types import Entity, Triple

#: The words that ask for an order, and those that ask for groups, as `kgqa.answering.question` reads them.
_RANK = re.compile(
    r"\b(rank|ranked|ranking|sort|sorted|order|ordered|arrange|arranged)\b|"
    r"\b(newest|latest|oldest|earliest|most recent) first\b"
)
_GROUP = re.compile(r"\b(?:per|for each|for every|by each)\s+(?:the\s+)?[a-z][a-z\-]*(?: [a-z][a-z\-]*)?")
#: A value's phrase must name the predicate at least this well (`phrase_score`).
KEY_MATCH = 0.5


@dataclass(frozen=True)
class Ordering:
    """What the question asks to order by: `operation` rank or group, the phrase naming the value
    (`key`), the direction, and the question without its ordering clause (`chain_question`)."""

    operation: str
    key: str
    descending: bool
    chain_question: str


def ordering_of(question: str, after: int) -> Ordering | None:
    """The ordering the question asks for in a clause after position `after` (the topic's mention),
    or None (no ordering, by title, or a clause elsewhere)."""
    plan = analyse(question)
    low = question.lower()
    if plan.operation == "rank" and plan.sort_key and not plan.alphabetical:
        m = _RANK.search(low, after)
        if m is None:
            return None
        cut = max(low.rfind(mark, after, m.start()) for mark in ("?", ".", "!", ","))
        cut = m.start() if cut < 0 else cut + (1 if low[cut] in "?.!" else 0)
        return Ordering("rank", plan.sort_key, plan.descending, question[:cut].rstrip(" ,"))
    if plan.operation == "group" and plan.group_key:
        m = _GROUP.search(low, after)
        if m is None:
            return None
        return Ordering("group", plan.group_key, False, (question[: m.start()] + question[m.end() :]).strip())
    return None


@dataclass(frozen=True)
class Keyed:
    """The chain's ends with the value each states for the key's predicate (ends stating none left out
    of `values`), and the triples that state them."""

    predicate: str
    values: dict[str, str]
    triples: dict[str, Triple]


def key_values(
    store: GraphStore, schema: GraphSchema, ends: list[Entity], types: set[str], key: str, cap: int
) -> Keyed | None:
    """The values of the literal predicate of the ends' `types` that `key` names best ("year" names
    "publication year"), read for every end at once; None when no predicate is named well enough."""
    scored = [(phrase_score(key, p), p) for p in schema.predicates if LITERAL in schema.step(p, 1, types)]
    score, predicate = max(scored, default=(0.0, ""))
    if score < KEY_MATCH:
        return None
    values: dict[str, str] = {}
    triples: dict[str, Triple] = {}
    by_id = {e.id: e for e in ends}
    for from_id, to_id, to_label, to_literal, _types in layout_of(store).step(ends, predicate, 1, cap):
        if from_id in by_id and from_id not in values:
            values[from_id] = to_label
            triples[from_id] = Triple(by_id[from_id], predicate, Entity(to_id, to_label, (), bool(to_literal)))
    return Keyed(predicate, values, triples)


def sortable(value: str) -> tuple:
    """A value's sort key: numbers by size, before words in alphabetical order."""
    try:
        return (0, float(value), "")
    except ValueError:
        return (1, 0.0, value.casefold())
