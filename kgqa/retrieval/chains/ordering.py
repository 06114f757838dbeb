"""A relation chain's ends ranked or grouped by one of their values ("Which papers did X publish? Rank
them by publication year", "How many films did X direct per year?"), counted over every end the chain
reaches: what the exact answers give where the graph has their catalog, for graphs past its ceiling."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgqa.answering.question import analyse
from kgqa.answering.words import phrase_score
from kgqa.graph.layout import layout_of
from kgqa.graph.store import GraphStore
from kgqa.retrieval.chains.schema import GraphSchema, valued
from kgqa.types import Entity, Triple

#: The words that ask for an order, and those that ask for groups, as `kgqa.answering.question` reads them.
_RANK = re.compile(
    r"\b(rank|ranked|ranking|sort|sorted|order|ordered|arrange|arranged)\b|"
    r"\b(newest|latest|oldest|earliest|most recent) first\b"
)
_GROUP = re.compile(r"\b(?:per|for each|for every|by each)\s+(?:the\s+)?[a-z][a-z\-]*(?: [a-z][a-z\-]*)?")
#: Words that ask for the latest or the earliest of the ends ("X's *latest* film", "which film did X direct
#: *first*"), and words after "first"/"last" that make them no such ask ("the first author", "last year").
_TIME_TOP = re.compile(r"\b(?:(?P<late>latest|newest|most\s+recent(?:ly)?|last)|(?P<early>earliest|oldest|first))\b")
_NOT_TIME_TOP = re.compile(
    r"\s*(?:first|author|authors|name|names|page|pages|edition|line|sentence|word|words|time|times|year|years|"
    r"month|week|decade|half|quarter|one|two|three|four|five|ten|\d)\b"
)
#: The value names the latest and earliest are read by, in the order tried.
TIME_KEYS = ("year", "date")
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
    closing: bool = False  # the ordering word ends the question ("which film did X direct *first*")
    noun: str = ""  # the word right after it ("the latest *film*")


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


def time_top_of(question: str, topic: tuple[int, int], skip: list[tuple[int, int]] | None = None) -> Ordering | None:
    """ "the most recent film by X", "X's first movie", "which film did X direct last": the latest
    (descending) or earliest of the chain's ends by a year or date, with the question read without the
    superlative; None where the question asks none outside the topic's mention."""
    low = question.lower()
    for m in _TIME_TOP.finditer(low):
        if any(a < m.end() and m.start() < b for a, b in [topic, *(skip or [])]):
            continue  # a title's word ("The Last Station"), the topic's or a value's the question names
        if _NOT_TIME_TOP.match(low, m.end()):
            continue
        rest = re.sub(r"\s{2,}", " ", (question[: m.start()] + question[m.end() :])).strip()
        closing = not re.search(r"\w", low[m.end() :])
        after = re.match(r"\W*([a-z]+)", low[m.end() :])
        return Ordering(
            "top", TIME_KEYS[0], m.group("late") is not None, rest, closing, after.group(1) if after else ""
        )
    return None


@dataclass(frozen=True)
class Keyed:
    """The chain's ends with the value each states for the key's predicate (ends stating none left out
    of `values`), and the triples that state them."""

    predicate: str
    values: dict[str, str]
    triples: dict[str, Triple]


def named_literal(schema: GraphSchema, types: set[str], key: str) -> str | None:
    """The literal predicate of the `types` that `key` names best ("year": publication year), or None
    where none is named well enough (`KEY_MATCH`)."""
    scored = [(phrase_score(key, p), p) for p in schema.predicates if valued(schema.step(p, 1, types))]
    score, predicate = max(scored, default=(0.0, ""))
    return predicate if score >= KEY_MATCH else None


def time_literal(schema: GraphSchema, types: set[str]) -> str | None:
    """The literal predicate of the `types` that states their year, else their date (`TIME_KEYS`), or None."""
    return next((p for key in TIME_KEYS if (p := named_literal(schema, types, key)) is not None), None)


def key_values(
    store: GraphStore, schema: GraphSchema, ends: list[Entity], types: set[str], key: str, cap: int
) -> Keyed | None:
    """The values of the literal predicate of the ends' `types` that `key` names best ("year" names
    "publication year"), read for every end at once; None when no predicate is named well enough."""
    predicate = named_literal(schema, types, key)
    if predicate is None:
        return None
    return _values_of(store, ends, predicate, cap)


def _values_of(store: GraphStore, ends: list[Entity], predicate: str, cap: int) -> Keyed:
    """The value of `predicate` each of `ends` states (the first where several), with its triple."""
    values: dict[str, str] = {}
    triples: dict[str, Triple] = {}
    by_id = {e.id: e for e in ends}
    for from_id, to_id, to_label, to_literal, _types in layout_of(store).step(ends, predicate, 1, cap):
        if from_id in by_id and from_id not in values:
            values[from_id] = to_label
            triples[from_id] = Triple(by_id[from_id], predicate, Entity(to_id, to_label, (), bool(to_literal)))
    return Keyed(predicate, values, triples)


def time_keyed(
    store: GraphStore, schema: GraphSchema, entities: list[Entity], types: set[str], cap: int
) -> Keyed | None:
    """The year or date each of `entities` states (the first of `TIME_KEYS` a predicate of theirs names),
    or None where they state neither."""
    for key in TIME_KEYS:
        keyed = key_values(store, schema, entities, types, key, cap)
        if keyed is not None and keyed.values:
            return keyed
    # no predicate named for a year or date ("published: 1973"): the first whose values mostly are years
    for predicate in sorted(p for p in schema.predicates if valued(schema.step(p, 1, types))):
        keyed = _values_of(store, entities, predicate, cap)
        stated = list(keyed.values.values())
        if stated and sum(bool(_YEAR_OR_DATE.fullmatch(v.strip())) for v in stated) >= YEARS_SHARE * len(stated):
            return keyed
    return None


#: A year (1000-2199) or an ISO date, as a value that dates what states it.
_YEAR_OR_DATE = re.compile(r"(?:1\d|2[01])\d\d(?:-\d\d(?:-\d\d)?)?")
#: The share of a predicate's values that must be years or dates for it to date the chain's ends.
YEARS_SHARE = 0.8


def extremes(keyed: Keyed, entities: list[Entity], descending: bool) -> list[Entity]:
    """The entities with the latest (`descending`) or earliest value of `keyed` (all tied ones)."""
    stated = [e for e in entities if e.id in keyed.values]
    if not stated:
        return []
    pick = max if descending else min
    best = pick(sortable(keyed.values[e.id]) for e in stated)
    return [e for e in stated if sortable(keyed.values[e.id]) == best]


@dataclass
class LatestAt:
    """Keeps, at one hop of a chain, only the latest or earliest of its entities by their year or date
    ("who directed X's *latest* film": the films, then their director); a `chains.follow.Narrows`."""

    store: GraphStore
    schema: GraphSchema
    hop: int
    descending: bool
    cap: int
    triples: dict[str, list[Triple]] = field(default_factory=dict)
    kept: list[Entity] = field(default_factory=list)

    def narrow(self, hop: int, types: set[str], reached: dict[str, Entity]) -> dict[str, Entity] | None:
        """The latest / earliest entities of hop `self.hop`; None at other hops or where none states a time."""
        if hop != self.hop:
            return None
        keyed = time_keyed(self.store, self.schema, list(reached.values()), types, self.cap)
        if keyed is None:
            return None
        self.kept = extremes(keyed, list(reached.values()), self.descending)
        self.triples = {e.id: [keyed.triples[e.id]] for e in self.kept}
        return {e.id: e for e in self.kept}


def sortable(value: str) -> tuple:
    """A value's sort key: numbers by size, before words in alphabetical order."""
    try:
        return (0, float(value), "")
    except ValueError:
        return (1, 0.0, value.casefold())
