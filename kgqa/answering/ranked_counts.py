"""Values ranked by how many hubs hold them: "rank the directors by number of movies", "sort genres by the
number of films", "rank the departments by number of employees" (every value of the attribute the noun
names, most hubs first), over the whole graph from the exact answers' catalog. "which 3 directors made
the most movies" is the top of the same ranking (`max` with a limit, kgqa/answering/exact.py)."""

from __future__ import annotations

import re

from kgqa.answering.catalog import Catalog
from kgqa.answering.exact import QUERY, SHOWN, Exact, _holder, _result, _type, constraints_of, grouped, matching
from kgqa.answering.question import QuestionPlan
from kgqa.answering.typed_values import attribute_of_type
from kgqa.answering.words import plural
from kgqa.graph.store import GraphStore
from kgqa.question.linking import Links
from kgqa.question.meaning import lexical_attribute, names_hubs
from kgqa.question.verbs import share_a_stem

_BY_NUMBER = re.compile(
    r"\b(?:rank|sort|order|list|arrange)\s+(?:all\s+)?(?:the\s+)?([a-z]+(?: [a-z]+)?)\s+by\s+(?:the\s+|their\s+)?"
    r"(?:number|count|amount)\s+of\s+([a-z]+)"
)


def ranked_by_count(plan: QuestionPlan, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    """Every value of the attribute the question's noun names, ranked by how many hubs hold it, where the
    counted noun names the hubs; None for any other question."""
    asked = _BY_NUMBER.search(plan.question.lower())
    if asked is None or links.hubs or not names_hubs(asked.group(2), cat) or names_hubs(asked.group(1), cat):
        return None
    phrase = asked.group(1)
    attribute = lexical_attribute(phrase, cat)
    if attribute is None:
        stemmed = [a for a in cat.attributes() if share_a_stem(phrase, a)]  # "directors": directed_by
        attribute = stemmed[0] if len(stemmed) == 1 else attribute_of_type(phrase, cat, store, plan.question)
    if attribute is None:
        return None
    constraints = constraints_of(plan, links, cat, skip=attribute)
    hubs, query = matching(store, cat, constraints)
    groups = grouped(store, cat, [h for h, _ in hubs], attribute)
    noun = plural(_type(cat))
    name = plural(_holder(attribute, phrase))
    if not groups:
        return Exact(
            f"No {_type(cat)} states a {_holder(attribute, phrase)} in this graph {QUERY}.", _result("rank", None, [])
        )
    numbered = [f"{i}. {key} ({n})" for i, (key, n, _) in enumerate(groups[:SHOWN], 1)]
    more = f"; and {len(groups) - SHOWN} more" if len(groups) > SHOWN else ""
    text = f"The {name} by number of {noun} {QUERY}: {'; '.join(numbered)}{more}."
    return Exact(text, _result("rank", None, [g[0] for g in groups], {g[0]: g[1] for g in groups}, query=query))
