"""One number over the hubs that meet a question's constraints: "what is the average salary in
engineering", "the total runtime of the films X directed", "the average number of authors per paper"
(a mean of counts where the values are no numbers). Read from the exact answers' catalog, over the
whole graph, never over the retrieved hubs alone."""

from __future__ import annotations

import re
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
from kgqa.answering.facts import numeric
from kgqa.answering.question import QuestionPlan
from kgqa.answering.render import spoken_name
from kgqa.answering.typed_values import attribute_of_type
from kgqa.answering.words import number_words, plural, singular
from kgqa.graph.store import GraphStore
from kgqa.question.linking import Links
from kgqa.question.meaning import Reading, lexical_attribute, names_hubs, timed_attribute
from kgqa.question.verbs import share_a_stem

#: "the total budget of (all) (the) *departments*": what holds the number.
_OF_THE = re.compile(r"\bof\s+(?:all\s+)?(?:the\s+)?(?:their\s+)?([a-z]+)\s*\??$")


def summary(plan: QuestionPlan, reading: Reading, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    """The average or total (`plan.operation`) of the attribute `plan.counted` names over the hubs that
    meet the question's constraints; None where no attribute is named."""
    if names_hubs(plan.counted, cat):
        return None  # "the average number of employees per project" where the employees are the hubs
    attribute = lexical_attribute(plan.counted, cat)
    if attribute is None and reading.asked and share_a_stem(plan.counted, reading.asked):
        attribute = reading.asked
    attribute = attribute or timed_attribute(plan.counted, cat)  # "the average cooking time": `minutes`
    typed_as = "" if attribute else plan.counted  # the question's word for the values' type
    attribute = attribute or attribute_of_type(plan.counted, cat, store)  # "projects": "works on" Projects
    if attribute is None:
        return None
    constraints = constraints_of(plan, links, cat, skip=attribute)
    hubs, query = matching(store, cat, constraints)
    ids = [h for h, _ in hubs]
    held = _held_elsewhere(plan, cat, attribute, ids)
    numbers = _stated_numbers(cat, attribute, ids) if held is None else None
    counted = held is None and numbers is None  # "the average number of authors": values counted per hub
    if held is not None:  # "the total budget of the departments": each department once, not once per employee
        per, labels, one = held
    else:
        per = (
            {h: float(len({f.value_id for f in cat.own_of(h, attribute)})) for h in ids}
            if counted
            else {h: float(n) for h, n in (numbers or {}).items()}
        )
        labels, one = cat.hubs, _type(cat)
    what = _holder(attribute, typed_as)
    averaging = plan.operation == "average"
    if not per:
        text = f"No {_type(cat)}{_phrase(constraints)} states a {what} in this graph {QUERY}."
        return Exact(text, _result(plan.operation, None, [], query=query))
    values = list(per.values())
    value = fmean(values) if averaging else sum(values)
    over = f"over {number_words(len(values))} {plural(one) if len(values) != 1 else one} ({len(values)})"
    what = f"number of {plural(what)}" if counted else spoken_name(attribute)  # "the average home goals"
    of = plural(one) if held is not None else f"{plural(_type(cat))}{_phrase(constraints)}"
    text = f"The {'average' if averaging else 'total'} {what} of the {of} is {_number(value)}, {over} {QUERY}."
    listed = {labels[k]: _number(n) for k, n in list(per.items())[:SHOWN]}
    shown = [h for h in ids if cat.own_of(h, attribute)][:SHOWN]
    return Exact(
        text,
        _result(plan.operation, round(value, 4), [labels[k] for k in per], listed, query=query, attribute=attribute),
        [(h, cat.hubs[h]) for h in shown],
        [f.triples[-1].canonical for h in shown for f in cat.own_of(h, attribute)],
    )


def _held_elsewhere(
    plan: QuestionPlan, cat: Catalog, attribute: str, ids: list[str]
) -> tuple[dict[str, float], dict[str, str], str] | None:
    """Where the hubs reach the number only through what they link to (an employee's department's budget),
    each holder's number once: holder -> number, holder -> label, and what the question calls the holders
    ("the total budget of all *departments*"); None where the hubs state it themselves or it is no number."""
    if any(not p.via for p in cat.paths.get(attribute, ())):
        return None
    per: dict[str, float] = {}
    labels: dict[str, str] = {}
    for h in ids:
        for f in cat.of(h, attribute):
            number = numeric(f.value)
            holder = f.triples[-1].subject
            if number is None or per.get(holder.id, number) != number:
                return None
            per[holder.id], labels[holder.id] = number, holder.label
    said = _OF_THE.search(plan.question.lower())
    one = singular(said.group(1)) if said and not names_hubs(said.group(1), cat) else "entity"
    return per, labels, one


def _number(x: float) -> str:
    """A number as an answer writes it: whole where it is, else two decimals ("101333.33")."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"
