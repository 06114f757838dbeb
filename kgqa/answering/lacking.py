"""Negation over the whole graph: the hubs of the type (that meet the question's other constraints)
minus those that state the negated value or attribute ("which papers do not use a case study",
"papers without a doi", "how many papers have no input data"). A hub whose only values of the
attribute say "no" ("No input data used", "False") lacks it explicitly; one that states another value
or no value at all is told apart in `result.groups`. Sentences are written from labels and the result."""

from __future__ import annotations

import re
from dataclasses import replace

from kgqa.answering.catalog import Catalog
from kgqa.answering.exact import (
    QUERY,
    SHOWN,
    Exact,
    _cap,
    _evidence,
    _phrase,
    _result,
    _type,
    constraints_of,
    matching,
)
from kgqa.answering.question import QuestionPlan
from kgqa.answering.render import attribute_noun, singular_phrase, verb_clause
from kgqa.answering.words import is_negative_value, join_items, label_words, number_words, plural
from kgqa.embeddings.base import Embedder
from kgqa.graph.reader import entities_by_ids
from kgqa.graph.store import GraphStore
from kgqa.question.linking import Links, Mention
from kgqa.question.meaning import lexical_attribute, semantic_attribute
from kgqa.question.verbs import the_one_named

_NEGATION = re.compile(r"\b(no|not|without|never|none|lack|lacking|lacks|missing)\b|n't\b", re.I)


def negation_start(question: str, links: Links) -> int | None:
    """Where the question's negation word is (None: it has none outside the linked names)."""
    spans = links.spans()
    for m in _NEGATION.finditer(question):
        if not any(s <= m.start() < e for s, e in spans):
            return m.start()
    return None


def lacking(
    plan: QuestionPlan, links: Links, cat: Catalog, store: GraphStore, embedder: Embedder, counting: bool
) -> Exact | None:
    """The hubs lacking what the negation names, exactly over the whole graph (None when the question
    names no value or attribute of the graph after its negation word)."""
    at = negation_start(plan.question, links)
    if at is None:
        return None
    negated: Mention | None = next((m for m in links.values if m.start > at), None)
    attribute: str | None
    if negated is not None:
        attribute = _attribute_of(negated, cat)
        if attribute is None:
            return None
        ids = {f.value_id for f in negated.facts if f.attribute == attribute}
        what = f"the {singular_phrase(attribute)} {negated.label}"
    else:
        attribute = (
            lexical_attribute(plan.negated, cat)
            or the_one_named(plan.negated, cat.paths)  # "no dependencies": `depends on`
            or (semantic_attribute(plan.negated, cat, embedder) if plan.negated else None)
        )
        if attribute is None:
            return None
        ids = set()
        what = ""
    positive = replace(links, values=[m for m in links.values if m is not negated])
    constraints = [c for c in constraints_of(plan, positive, cat, skip=None) if c.attribute != attribute or ids]
    hubs, query = matching(store, cat, constraints)
    query = {**query, "without": {"attribute": attribute, "value": negated.label if negated else None}}
    keep: list[tuple[str, str]] = []
    explicit: list[str] = []  # states only "no" values of the attribute
    other: list[str] = []  # states other values of the attribute
    silent: list[str] = []  # states no value of it at all
    triples: list[str] = []
    for h, label in hubs:
        facts = cat.of(h, attribute)
        if ids:
            if any(f.value_id in ids for f in facts):
                continue
        elif any(not is_negative_value(f.value) for f in facts):
            continue
        keep.append((h, label))
        if not facts:
            silent.append(label)
        elif all(is_negative_value(f.value) for f in facts):
            explicit.append(label)
        else:
            other.append(label)
        triples += [t.canonical for f in facts for t in f.triples]
    triples = _evidence(cat, [h for h, _ in keep], constraints) + triples
    n = len(keep)
    noun = _type(cat) if n == 1 else plural(_type(cat))
    attr = attribute_noun(attribute)
    # "use Garlic"; with no value named, "depend on anything"
    done = _done(attribute, negated, ids, store) if negated is not None else verb_clause(attribute, "anything", 2)
    if n == 0 and done and not ids:
        text = f"Every {_type(cat)}{_phrase(constraints)} {verb_clause(attribute, 'something', 1)} {QUERY}: all {len(hubs)} state it"
    elif n == 0 and done:
        text = f"Every {_type(cat)}{_phrase(constraints)} does {done} {QUERY}: all {len(hubs)} state it"
    elif n == 0:
        lack = f"lacks {what}" if ids else f"lacks a {attr}"
        text = f"No {_type(cat)}{_phrase(constraints)} {lack} {QUERY}: all {len(hubs)} state it"
    else:
        head = f"{_cap(number_words(n))} {noun} ({n}){_phrase(constraints)}"
        claim = (
            f"{'does' if n == 1 else 'do'} not {done or 'have ' + what}"
            if ids or done
            else f"{'states' if n == 1 else 'state'} no {attr}"
        )
        text = f"{head} {claim} {QUERY}"
    labels = [label for _, label in keep]
    if n and not counting:
        shown = join_items([f"'{x}' [{i}]" for i, x in enumerate(labels[:SHOWN], 1)])
        text += f": {shown}{f' and {n - SHOWN} more' if n > SHOWN else ''}"
    text += "."
    parts = []
    if ids and other:
        parts.append(f"{_count(len(other))} of them {'states' if len(other) == 1 else 'state'} another {attr}")
    if explicit:
        said = sorted({f.value for h, _ in keep for f in cat.of(h, attribute) if is_negative_value(f.value)})
        parts.append(
            f"{_count(len(explicit))} {'says' if len(explicit) == 1 else 'say'} so explicitly ({join_items(said)})"
        )
    if silent and (other or explicit):
        parts.append(f"{_count(len(silent))} {'states' if len(silent) == 1 else 'state'} no {attr} at all")
    if parts:
        text += " " + _cap("; ".join(parts)) + "."
    groups = (
        {"explicit": explicit, "other value": other, "no fact": silent}
        if ids
        else {"explicit": explicit, "no fact": silent}
    )
    result = _result("count" if counting else "negation", n if counting else None, labels, groups, query=query)
    return Exact(text, result, [] if counting else keep, list(dict.fromkeys(triples)))


def _done(attribute: str, negated: Mention, ids: set[str], store: GraphStore) -> str | None:
    """What the hubs lacking the value do not do, where the attribute reads as a verb ("use Garlic"; one
    step further "use an ingredient that belongs to Dairy"); None for a noun ("genre")."""
    fact = next((f for f in negated.facts if f.attribute == attribute and f.value_id in ids), None)
    if fact is None or not fact.path.via:
        return verb_clause(attribute, negated.label, 2)
    then = verb_clause(fact.path.pred, negated.label, 1)
    if then is None or len(fact.triples) < 2:
        return None
    step = fact.triples[0].object
    types = step.types or getattr(entities_by_ids(store, [step.id]).get(step.id), "types", ())
    kind = label_words(types[0]) if types else ""
    one = f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}" if kind else "anything"
    return verb_clause(fact.path.via, f"{one} that {then}", 2)


def _attribute_of(mention: Mention, cat: Catalog) -> str | None:
    counts: dict[str, int] = {}
    for f in mention.facts:
        if f.hub in cat.hubs:
            counts[f.attribute] = counts.get(f.attribute, 0) + 1
    return max(counts, key=lambda a: counts[a]) if counts else None


def _count(n: int) -> str:
    return f"{number_words(n)} ({n})"
