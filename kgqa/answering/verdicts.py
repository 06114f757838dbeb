"""Yes/no answers over the exact answers' catalog: whether hubs with every value a question names exist
("did X direct a drama?", "did X publish at ICSE?") and whether a hub's year is the one asked ("was X
released in 1995?", "did X come out before 1980?")."""

from __future__ import annotations

import re

from kgqa.answering.catalog import Catalog
from kgqa.answering.exact import (
    QUERY,
    SHOWN,
    Exact,
    _evidence,
    _phrase,
    _result,
    _type,
    constraints_of,
    matching,
)
from kgqa.answering.question import QuestionPlan, year_in_bound
from kgqa.answering.render import attribute_noun, singular_phrase
from kgqa.answering.words import join_items, number_words, plural, written
from kgqa.graph.store import GraphStore
from kgqa.question.linking import Links


def exists(plan: QuestionPlan, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    """ "did X direct a drama?", "did X write a paper in 2019?": yes with the hubs that meet every value the
    question names, or no, with how many hubs meet the first of them."""
    constraints = constraints_of(plan, links, cat, skip=None)
    if len(constraints) < 2:
        return None
    hubs, query = matching(store, cat, constraints)
    if hubs:
        noun = _type(cat) if len(hubs) == 1 else plural(_type(cat))
        shown = written([f"'{label}' [{i}]" for i, (_, label) in enumerate(hubs, 1)], SHOWN)
        text = f"Yes: the {noun}{_phrase(constraints)} {'is' if len(hubs) == 1 else 'are'} {shown}."
        evidence = _evidence(cat, [h for h, _ in hubs[:SHOWN]], constraints)
        return Exact(text, _result("list", "yes", [label for _, label in hubs], query=query), hubs, evidence)
    first, rest = constraints[0], constraints[1:]
    base, _ = matching(store, cat, [first])
    # "has genre shoegaze" after "has": the attribute without its own "has"
    rest_phrase = join_items([f"{re.sub(r'^(?:has|have) ', '', singular_phrase(c.attribute))} {c.label}" for c in rest])
    if base:
        many = f"the {number_words(len(base))} {plural(_type(cat))}" if len(base) > 1 else f"the one {_type(cat)}"
        text = f"No: none of {many}{_phrase([first])} has {rest_phrase} {QUERY}."
    else:
        text = f"No: no {_type(cat)}{_phrase([first])} is in this graph {QUERY}."
    return Exact(text, _result("list", "no", [], query=query))


def in_years(plan: QuestionPlan, links: Links, hub: str, cat: Catalog) -> Exact | None:
    """Whether a hub's year or date is the one the question names, in its range or past its bound."""
    when = cat.date_attribute(plan.question)
    facts = cat.of(hub, when) if when else []
    stated = [(f, int(f.value.strip()[:4])) for f in facts if f.value.strip()[:4].isdigit()]
    if not when or not stated:
        return None
    if plan.year_bound:
        bound = plan.year_bound
        wanted, ok = f"{bound[0]} {bound[1]}", [f for f, y in stated if year_in_bound(y, bound)]
    elif plan.year_range:
        lo, hi = plan.year_range
        wanted, ok = f"between {lo} and {hi}", [f for f, y in stated if lo <= y <= hi]
    else:
        wanted, ok = " or ".join(links.years), [f for f, y in stated if str(y) in links.years]
    shown = ok or [f for f, _ in stated]
    values = join_items([f.value for f in shown])
    title, noun = f"'{cat.hubs[hub]}'", attribute_noun(when)
    text = (
        f"Yes, {title} has the {noun} {values} [1]" if ok else f"No, {title} has the {noun} {values} [1], not {wanted}"
    )
    if ok and (plan.year_bound or plan.year_range):
        text += f" ({wanted})"
    return Exact(
        text + ".",
        _result("value", "yes" if ok else "no", [f.value for f in shown]),
        [(hub, cat.hubs[hub])],
        [t.canonical for f in shown for t in f.triples],
    )
