"""One number over the hubs that meet a question's constraints: "what is the average salary in
engineering", "the total runtime of the films X directed", "the average number of authors per paper"
(a mean of counts where the values are no numbers). Read from the exact answers' catalog, over the
whole graph, never over the retrieved hubs alone."""

from __future__ import annotations

from statistics import fmean

from kgqa.answering.catalog import Catalog
from kgqa.answering.exact import (
    QUERY,
    SHOWN,
    Exact,
    _holder,
    _phrase,
    _result,
    _stated_numbers,
    _type,
    constraints_of,
    matching,
)
from kgqa.answering.question import QuestionPlan
from kgqa.answering.typed_values import attribute_of_type
from kgqa.answering.words import number_words, plural
from kgqa.graph.store import GraphStore
from kgqa.question.linking import Links
from kgqa.question.meaning import Reading, lexical_attribute, names_hubs
from kgqa.question.verbs import share_a_stem


def summary(plan: QuestionPlan, reading: Reading, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    """The average or total (`plan.operation`) of the attribute `plan.counted` names over the hubs that
    meet the question's constraints; None where no attribute is named."""
    if names_hubs(plan.counted, cat):
        return None  # "the average number of employees per project" where the employees are the hubs
    attribute = lexical_attribute(plan.counted, cat)
    if attribute is None and reading.asked and share_a_stem(plan.counted, reading.asked):
        attribute = reading.asked
    typed_as = "" if attribute else plan.counted  # the question's word for the values' type
    attribute = attribute or attribute_of_type(plan.counted, cat, store)  # "projects": "works on" Projects
    if attribute is None:
        return None
    constraints = constraints_of(plan, links, cat, skip=attribute)
    hubs, query = matching(store, cat, constraints)
    ids = [h for h, _ in hubs]
    numbers = _stated_numbers(cat, attribute, ids)
    counted = numbers is None  # "the average number of authors": values counted per hub
    per_hub: dict[str, float] = (
        {h: float(len({f.value_id for f in cat.of(h, attribute)})) for h in ids}
        if counted
        else {h: float(n) for h, n in (numbers or {}).items()}
    )
    noun = plural(_type(cat))
    what = _holder(attribute, typed_as)
    averaging = plan.operation == "average"
    if not per_hub:
        text = f"No {_type(cat)}{_phrase(constraints)} states a {what} in this graph {QUERY}."
        return Exact(text, _result(plan.operation, None, [], query=query))
    values = list(per_hub.values())
    value = fmean(values) if averaging else sum(values)
    shown = _number(value)
    over = f"over {number_words(len(values))} {noun if len(values) != 1 else _type(cat)} ({len(values)})"
    if counted:
        what = f"number of {plural(what)}"
    head = f"The {'average' if averaging else 'total'} {what} of the {noun}{_phrase(constraints)}"
    text = f"{head} is {shown}, {over} {QUERY}."
    items = [cat.hubs[h] for h in per_hub]
    listed = {cat.hubs[h]: _number(n) for h, n in list(per_hub.items())[:SHOWN]}
    evidence = [f.triples[-1].canonical for h in list(per_hub)[:SHOWN] for f in cat.of(h, attribute)]
    return Exact(
        text,
        _result(plan.operation, round(value, 4), items, listed, query=query, attribute=attribute, hubs=len(values)),
        [(h, cat.hubs[h]) for h in list(per_hub)[:SHOWN]],
        evidence,
    )


def _number(x: float) -> str:
    """A number as an answer writes it: whole where it is, else two decimals ("101333.33")."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"
