"""The values that hold two roles: "which actors also directed movies", "which directors have also acted"
(a value of both attributes, on any hubs), "who both wrote and directed a movie" (both on one hub), over
the whole graph from the exact answers' catalog. Each role is named by a noun or a verb that shares a stem
with its attribute or is its doer ("actors", "acted": the cast; "directed": the director)."""

from __future__ import annotations

import re

from kgqa.answering.catalog import Catalog
from kgqa.answering.exact import QUERY, SHOWN, Exact, _cap, _names_role, _result, _type, joined_roles
from kgqa.answering.question import QuestionPlan
from kgqa.answering.render import attribute_noun
from kgqa.answering.words import number_words, written
from kgqa.question.linking import Links

#: "which actors *also* directed", "directors who have also acted": the role before "also", the one after.
_ALSO = re.compile(
    r"\b(?:which|what|list|name|how many)\s+([a-z]+)\s+(?:who\s+|that\s+)?(?:have\s+|has\s+|had\s+)?also\s+([a-z]+)"
)
#: "who both wrote and directed a movie": both roles on one hub.
_BOTH = re.compile(r"^\W*(?:who|which \w+|how many \w+)\s+(?:have\s+|has\s+)?both\s+")


def both_roles(plan: QuestionPlan, links: Links, cat: Catalog) -> Exact | None:
    """The values holding both roles the question names, or None where it names no such pair."""
    if links.hubs or links.values:
        return None
    low = plan.question.lower()
    attributes = cat.attributes()
    also = _ALSO.search(low)
    pair: list[str | None]
    if also:
        pair, same_hub = [_one_role(word, attributes) for word in also.groups()], False
    elif _BOTH.match(low):
        pair, same_hub = list(joined_roles(low, attributes)) or [None, None], True
    else:
        return None
    first, second = pair
    if first is None or second is None or first == second:
        return None
    holders = _both(cat, first, second, same_hub)
    names = sorted(holders.values(), key=str.casefold)
    roles = f"{attribute_noun(first, len(names))} and {attribute_noun(second, len(names))}"
    where = f" of one {_type(cat)}" if same_hub else ""
    counting = low.startswith("how many")
    query = {"attributes": [first, second], "same_hub": same_hub}
    if counting:
        text = f"{_cap(number_words(len(names)))} ({len(names)}) {_are(len(names))} both {roles}{where} {QUERY}."
        return Exact(text, _result("count", len(names), names, query=query))
    if not names:
        text = f"None of the {attribute_noun(first, 2)} is also one of the {attribute_noun(second, 2)}{where} in this graph {QUERY}."
        return Exact(text, _result("list", None, [], query=query))
    text = f"{_cap(number_words(len(names)))} ({len(names)}) {_are(len(names))} both {roles}{where} {QUERY}: {written(names, SHOWN)}."
    return Exact(text, _result("list", None, names, query=query))


def _one_role(word: str, attributes: list[str]) -> str | None:
    named = [a for a in attributes if _names_role(word, a)]
    return named[0] if len(named) == 1 else None


def _both(cat: Catalog, first: str, second: str, same_hub: bool) -> dict[str, str]:
    """Value id -> label of the values of both attributes (on one hub where `same_hub`)."""
    firsts: dict[str, set[str]] = {}
    seconds: dict[str, set[str]] = {}
    labels: dict[str, str] = {}
    for f in cat.facts:
        if f.attribute in (first, second):
            (firsts if f.attribute == first else seconds).setdefault(f.value_id, set()).add(f.hub)
            labels[f.value_id] = f.value
    both = [v for v in firsts if v in seconds and (not same_hub or firsts[v] & seconds[v])]
    return {v: labels[v] for v in both}


def _are(n: int) -> str:
    return "is" if n == 1 else "are"
