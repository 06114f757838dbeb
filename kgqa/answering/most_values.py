"""The hubs that hold the most (or fewest) values of one attribute, named by the type of its values:
"who directed the most movies" where people are the hubs and the movies their values (the verb picks
"directed" among the relations to movies), "which employee works on the most projects". Counted over
the whole graph from the exact answers' catalog."""

from __future__ import annotations

import re

from kgqa.answering.catalog import Catalog
from kgqa.answering.exact import QUERY, Exact, _result, _type, constraints_of, matching
from kgqa.answering.question import QuestionPlan
from kgqa.answering.typed_values import attribute_of_type
from kgqa.answering.words import join_items, label_words, plural, singular
from kgqa.graph.store import GraphStore
from kgqa.question.linking import Links
from kgqa.question.meaning import Reading, names_hubs
from kgqa.question.verbs import the_one_named

_MOST = re.compile(r"\b(?:the\s+)?(most|fewest|least)\s+([a-z][a-z\-]*)")


def hubs_with_most(plan: QuestionPlan, reading: Reading, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    """The hubs with the most (fewest) values of the attribute whose values the noun after "the most"
    names by their type, where the hubs themselves are asked; None otherwise."""
    most = _MOST.search(plan.question.lower())
    if most is None or names_hubs(most.group(2), cat):
        return None
    # the values' type ("the most departments"), else the one attribute the noun names ("actors": starred_actors)
    counted = most.group(2)
    attribute = attribute_of_type(counted, cat, store, plan.question) or the_one_named(counted, cat.attributes())
    hubs_asked = not plan.asked or names_hubs(plan.asked, cat) or reading.asked in (None, attribute)
    if attribute is None or not hubs_asked:
        return None
    constraints = constraints_of(plan, links, cat, skip=attribute)
    hubs, query = matching(store, cat, constraints)
    counts = {h: len({f.value_id for f in cat.own_of(h, attribute)}) for h, _ in hubs}
    counts = {h: n for h, n in counts.items() if n}
    if not counts:
        return None
    fewest = most.group(1) != "most"
    target = min(counts.values()) if fewest else max(counts.values())
    top = sorted((h for h, n in counts.items() if n == target), key=lambda h: cat.hubs[h])
    noun = singular(most.group(2))
    things = plural(noun) if target != 1 else noun
    who = _type(cat) if len(top) == 1 else plural(_type(cat))
    named = join_items([f"'{cat.hubs[h]}' [{i}]" for i, h in enumerate(top, 1)])
    verb = "is" if len(top) == 1 else "are"
    tied = " (tied)" if len(top) > 1 else ""
    text = f"The {who} with the {'fewest' if fewest else 'most'} {plural(noun)} ({label_words(attribute)}) {verb} {named}{tied}: {target} {things} each {QUERY}."
    if len(top) == 1:
        text = text.replace(" each ", " ")
    ranked = sorted(counts, key=lambda h: (counts[h], cat.hubs[h]) if fewest else (-counts[h], cat.hubs[h]))
    return Exact(
        text,
        _result(
            "min" if fewest else "max",
            cat.hubs[top[0]] if len(top) == 1 else [cat.hubs[h] for h in top],
            [cat.hubs[h] for h in top],
            {cat.hubs[h]: counts[h] for h in ranked[:12]},
            query=query,
            attribute=attribute,
        ),
        [(h, cat.hubs[h]) for h in top],
        [f.triples[-1].canonical for h in top for f in cat.own_of(h, attribute)][:50],
    )
