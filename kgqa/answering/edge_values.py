"""Questions about what an edge itself says, in a user's own property graph whose rel tables have
properties (`ACTED_IN {role}`, `USES {amount}`, `WORKS_AT {since}`): "what role did Keanu Reeves play
in The Matrix", "how much garlic goes in hummus", "who played Neo in The Matrix", "who played Agent
Smith". The edges are read through the layout (`out_edges`/`in_edges` carry each edge's qualifiers);
a question that names neither a qualifier, nor a qualifier's value, nor both ends of an edge is left
to the other readers."""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import replace

from kgqa.answering.catalog import Catalog
from kgqa.answering.connections import once_per_edge, statement
from kgqa.answering.exact import QUERY, Exact, _masked, _result
from kgqa.answering.question import QuestionPlan
from kgqa.answering.render import in_the_passive
from kgqa.answering.words import count_phrase, same_word, singular
from kgqa.graph.layout import layout_of
from kgqa.graph.property_layout import PropertyLayout
from kgqa.graph.store import GraphStore
from kgqa.question.linking import Links
from kgqa.question.meaning import asks_link
from kgqa.types import Triple

MAX_EDGES = 200  # edges read per named entity
SHOWN = 8  # edges written out

_WORD = re.compile(r"[a-z][a-z'-]*")
#: Question words that ask for an edge property by what it holds, whatever the property is called:
#: a part played, a time, a quantity.
_CUES: dict[str, tuple[str, ...]] = {
    "role": ("character", "part", "play", "played", "plays", "playing", "portray", "portrayed", "cast"),
    "time": ("when", "since", "year", "date"),
    "quantity": ("much",),  # "how much"; "how many" counts things ("how many ingredients ...")
}
_PREPOSITIONS = frozenset(
    ("since", "from", "until", "till", "to", "at", "on", "in", "before", "after", "as", "by", "for")
)
_LOOKS_FOR_ONE = re.compile(r"\s*(who|whom|whose|which|what|name|tell)\b")
_AGGREGATE = re.compile(r"\b(how many|most|least|fewest|average|total|top|count|number of)\b")
_HOW_MANY = re.compile(r"\bhow many ([a-z]+)")
_ROLE_NAMES = ("role", "character", "part", "as")
_YEARISH = re.compile(r"^(1[5-9]|20)\d\d\b|^\d{4}-\d\d")
_NUMBERISH = re.compile(r"^(\d|a |an |one |half )", re.I)


def edge_value(question: str, plan: QuestionPlan, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    """The exact answer from the edges' own properties, or None (not such a question, or no such graph)."""
    layout = layout_of(store)
    if not isinstance(layout, PropertyLayout) or not layout.has_qualifiers():
        return None
    if plan.yes_no or asks_link(question):
        return None
    ends = [m.hubs[0] for m in links.hubs if m.hubs] + [f.value_id for m in links.values for f in m.facts[:1]]
    masked = _masked(question, links).casefold()
    if ends:
        edges = _edges_of(layout, ends)
    elif _LOOKS_FOR_ONE.match(masked) and not _AGGREGATE.search(masked):
        edges = _edges_naming(layout, masked)  # "who played agent smith"
    else:
        return None
    if len(set(ends)) >= 2:
        named = set(ends)
        edges = [t for t in edges if t.subject.id in named and t.object.id in named]
    asked = _asked(masked, edges)
    by_value = [  # a text value written ("neo"), or a number of a qualifier asked ("since 2015")
        t for t in edges if any(_written(v, masked) for k, v in t.qualifiers if _has_letters(v) or k in asked)
    ]
    joined = len(set(ends)) >= 2 and bool(edges)
    counted = _HOW_MANY.search(masked)
    counting = bool(counted and asked and any(_names(counted.group(1), k.casefold()) for k in asked))
    if not joined and _AGGREGATE.search(masked) and not counting:
        return None  # "how many movies did X act in": a count of entities, for the other readers
    if by_value:
        edges = by_value
    elif asked:
        edges = [t for t in edges if any(k in asked for k, _ in t.qualifiers)]
    elif not joined:
        return None
    if not edges:
        return None
    exact = _said(edges, asked, bool(by_value), masked, set(cat.hubs))
    if counting and counted is not None:  # "how many roles did keanu reeves play"
        n = len(exact.result["items"])
        exact.text = f"{_cap(count_phrase(n, singular(counted.group(1))))}: {exact.text}"
        exact.result = {**exact.result, "operation": "count", "value": n}
    return exact


def _edges_of(layout: PropertyLayout, ends: list[str]) -> list[Triple]:
    """The qualified edges at the named entities, each once, in its rel table's direction where the
    graph reads it both ways (`Keanu Reeves -acted in-> The Matrix`, not `The Matrix -actor-> ...`)."""
    ids = list(dict.fromkeys(ends))
    found = [t for t in layout.out_edges(ids) + layout.in_edges(ids) if t.qualifiers][: MAX_EDGES * len(ids)]
    return [p[0] for p in once_per_edge([[t] for t in found], layout.forward_predicates())]


def _edges_naming(layout: PropertyLayout, masked: str) -> list[Triple]:
    """With no entity named: the edges whose text property the question writes as a whole phrase."""
    return [
        t
        for t in layout.edges_with_text_in(masked, MAX_EDGES)
        if any(_written(v, masked) for _, v in t.qualifiers if _has_letters(v))
    ]


def _written(value: str, text: str) -> bool:
    v = value.casefold().strip()
    return (len(v) >= 3 or v.isdigit()) and re.search(rf"(?<![\w]){re.escape(v)}(?![\w])", text) is not None


def _has_letters(value: str) -> bool:
    return re.search(r"[^\W\d_]", value) is not None


def _asked(masked: str, edges: list[Triple]) -> set[str]:
    """The qualifier names the question asks for: named by a word of theirs ("role", "budget"), or by a
    cue for what they hold (a part played: "character", "who did X play"; a time: "when", a year-like
    value; a quantity: "how much", a value that starts with a number)."""
    words = _WORD.findall(masked)
    names = {k for t in edges for k, _ in t.qualifiers}
    asked = {n for n in names if any(_names(w, part) for part in _WORD.findall(n.casefold()) for w in words)}
    if asked:
        return asked
    return _cued(words, masked, edges)


def _cued(words: list[str], masked: str, edges: list[Triple]) -> set[str]:
    """The qualifier names a cue asks for by what they hold; none where a cue fits several and the
    question names only one end (the edges' "how much did Speed cost": a budget, or a billing?)."""
    asked: set[str] = set()
    cued = {kind for kind, cues in _CUES.items() if any(w in cues for w in words)}
    if "quantity" in cued and not re.search(r"\bhow much\b", masked):
        cued.discard("quantity")
    for t in edges:
        for k, v in t.qualifiers:
            if (
                ("role" in cued and k.casefold() in _ROLE_NAMES and _has_letters(v))
                or ("time" in cued and _YEARISH.match(v))
                or ("quantity" in cued and _NUMBERISH.match(v))
            ):
                asked.add(k)
    one_pair = len({frozenset((t.subject.id, t.object.id)) for t in edges}) <= 1
    return asked if len(asked) <= 1 or one_pair else set()


def _names(word: str, part: str) -> bool:
    if len(part) < 3 or len(word) < 3:
        return False
    return word == part or singular(word) == part or same_word(word, part)


def _said(edges: list[Triple], asked: set[str], by_value: bool, masked: str, hubs: Container[str]) -> Exact:
    """The edges as sentences, each with the qualifiers asked (else those the question writes the value
    of, else all), the hubs at their ends cited."""
    shown = edges[:SHOWN]
    cited = list(dict.fromkeys(e for t in shown for e in (t.subject, t.object) if e.id in hubs))
    number = {e.id: i for i, e in enumerate(cited, start=1)}
    sentences = []
    items: list[str] = []
    notes = [_notes(t, asked, by_value, masked) for t in edges]
    for t, said_of_t in zip(edges, notes, strict=True):
        if by_value:
            items.append(next((e.text for e in (t.subject, t.object) if e.id not in hubs), t.subject.text))
        else:
            items += [v for _, v in said_of_t]
    for t, said_of_t in zip(shown, notes, strict=False):
        said = _qualifiers_said(said_of_t)
        refs = "".join(f"[{number[e.id]}]" for e in (t.subject, t.object) if e.id in number) or QUERY
        clause = statement(replace(t, qualifiers=()), hubs)  # (the qualifiers asked are said below)
        if in_the_passive(t.predicate):  # "'Inception' is produced by Warner Bros"
            clause = clause.replace(f" {t.predicate.replace('_', ' ')} ", f" is {t.predicate.replace('_', ' ')} ", 1)
        sentences.append(f"{_cap(clause)} {said} {refs}.")
    if len(edges) > SHOWN:
        sentences.append(f"The graph states {len(edges) - SHOWN} more such edges.")
    result = _result(
        "lookup",
        items[0] if len(items) == 1 else None,
        list(dict.fromkeys(items)),
        edges=[{"triple": t.canonical, "qualifiers": dict(t.qualifiers)} for t in edges],
    )
    return Exact(" ".join(sentences), result, [(e.id, e.label) for e in cited], [t.stated for t in shown])


def _notes(t: Triple, asked: set[str], by_value: bool, masked: str) -> list[tuple[str, str]]:
    """The qualifiers of `t` said: those asked, else those whose value the question writes, else all."""
    return [(k, v) for k, v in t.qualifiers if (k in asked if asked else not by_value or _written(v, masked))]


def _qualifiers_said(notes: list[tuple[str, str]]) -> str:
    """ "since 2015, with job title Data Engineer": a qualifier named by a preposition before its value,
    the others after "with"."""
    led = [f"{k} {v}" for k, v in notes if k.casefold() in _PREPOSITIONS]
    rest = [f"{k} {v}" for k, v in notes if k.casefold() not in _PREPOSITIONS]
    return ", ".join(led + ([f"with {', '.join(rest)}"] if rest else []))


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s and not s.startswith("'") else s
