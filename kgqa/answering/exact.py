"""Answers the graph can give exactly: the question's names linked to the graph's labels, its meaning
read (kgqa/question/meaning.py), and then either a named hub's own values (who wrote 'X', where did
'X' appear, compare 'X' and 'Y' in terms of Z, was 'X' published at V) or one Cypher aggregate over the
whole graph (counts, lists, rankings, groupings, maxima of the hubs that meet the constraints). The
sentences are written from labels and the result, not from the question's words. Absent names get
"no ... named ... in this graph" with the closest labels; ambiguous ones get their candidates.

`refine` returns None when the question is none of these: the composer's answer over the retrieved
facts stands."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

from kgqa.answering.catalog import Catalog, Fact, Path
from kgqa.answering.facts import numeric
from kgqa.answering.question import (
    THRESHOLD_PHRASE,
    QuestionPlan,
    analyse,
    asked_number,
    meets_threshold,
    year_in_bound,
)
from kgqa.answering.render import (
    after_noun,
    attribute_noun,
    is_participle,
    singular_phrase,
    spoken_name,
    stated_as_passive,
    verb_clause,
    verbal,
)
from kgqa.answering.typed_values import attribute_of_type
from kgqa.answering.words import agreeing, gerund, join_items, number_words, plural, written
from kgqa.embeddings.base import Embedder
from kgqa.graph.store import GraphStore
from kgqa.question.linking import Linker, Links
from kgqa.question.meaning import Reading, asks_inverse, asks_together, lexical_attribute, names_hubs, read
from kgqa.question.verbs import agent_words, share_a_stem, the_one_named, words_name

QUERY = "[query]"
#: Seconds of one answering/matching_hubs_one or group_hubs_one read (one key, a hop, the hubs' rows:
#: 5-15 ms on the 10^5 scale graph); `GraphStore.by_key` weighs it against a scan of the triples.
HUB_LOOKUP_S = 10e-3
SHOWN = 12  # items written out in a sentence; the result holds all of them
EVIDENCE_MAX = 1_000  # values of one hub an answer cites triples for (a hub with 200,000 authors); its result holds all
_YESNO = re.compile(r"^\s*(is|was|were|are|did|does|do|has|have|had)\b", re.I)
_TEMPORAL = re.compile(r"\b(earlier|later|before|after|older|newer|sooner)\b", re.I)
_SAME_AS = {
    "before": "earlier",
    "older": "earlier",
    "sooner": "earlier",
    "after": "later",
    "newer": "later",
    "less": "fewer",
}
_BY_NAME = re.compile(r"\b(by|on) (their |the )?(title|name)s?\b|\balphabetic", re.I)
_PERSONAL = re.compile(r"\b(who|wrote|written|author|authors|by|publish|published)\b", re.I)


@dataclass
class Exact:
    """An answer from the graph: text, structured result, the hubs cited and the triples shown, and the
    graph labels it names (the composer's sentence is kept only when it writes them all)."""

    text: str
    result: dict[str, Any]
    sources: list[tuple[str, str]] = field(default_factory=list)  # (hub id, label), numbered from 1
    triples: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)  # the question's words those labels were linked from


@dataclass
class Constraint:
    """Hubs whose `attribute` has one of `values` (ids of the value entities)."""

    attribute: str
    path: Path
    label: str
    ids: list[str]


def refine(
    question: str,
    cat: Catalog,
    linker: Linker,
    store: GraphStore,
    embedder: Embedder,
    retrieved: list[str],
) -> Exact | None:
    """The exact answer to `question`, or None to keep the retrieved facts' answer."""
    plan = analyse(question)
    links = linker.link(question)
    if links.ambiguous:
        m = links.ambiguous[0]
        text = f"'{m.text}' may name several {plural(_type(cat))}: {join_items([repr(c) for c in m.candidates])}."
        return Exact(text + " Which one is meant?", _result("lookup", None, [], candidates=m.candidates))
    from kgqa.answering.edge_values import edge_value  # (it builds on this module)

    edged = edge_value(question, plan, links, cat, store)
    if edged is not None:
        return _labelled(edged, links, cat)
    names = tuple(m.text for m in links.hubs + links.values) + tuple(links.years)
    reading = read(plan, _masked(question, links), cat, embedder, names)
    reading = _hubs_asked(plan, _typed_reading(plan, reading, links, cat, store), links, cat)
    if reading.operation in ("max", "min") and not links.hubs:
        plan, reading = _most_of_a_number(plan, reading, cat)
    if links.unlinked and not links.hubs and not links.values:
        gone = links.unlinked[0]
        if not any(gone.text.casefold() in t.casefold() for t in retrieved):
            people = [a for a in cat.paths if "author" in a.lower()]
            kind = singular_phrase(people[0]) if _PERSONAL.search(question) and people else "entry"
            if kind != "entry":
                gone.closest = linker.closest(gone.text, attribute=people[0]) or gone.closest
            closest = join_items([f"'{c}'" for c in gone.closest])
            text = f"There is no {kind} named '{gone.text}' in this graph; the closest labels are {closest}."
            return Exact(text, _result(reading.operation, None, [], missing=gone.text, closest=gone.closest))
    exact: Exact | None = None
    which_of_two = (  # "which is older, X or Y?", "which came out first, X or Y?"
        len(links.hubs) == 2
        and re.search(r"\bor\b", _masked(question, links)) is not None
        and re.search(r"\b(first|last|earliest|latest|oldest|newest|older|newer|earlier|later)\b", question, re.I)
    )
    if which_of_two or (_YESNO.match(question) and len(links.hubs) >= 2 and _TEMPORAL.search(question)):
        # "was 'X' published before 'Y'?", "which is older, X or Y?": a comparison of their dates, not a link
        when = cat.date_attribute(question)
        reading = replace(reading, operation="compare", asked=when or reading.asked)
    named = _named_attribute(_masked(question, links), cat)
    if _YESNO.match(question) and len(links.hubs) >= 2 and named and reading.operation != "compare":
        reading = replace(reading, operation="compare", asked=named)  # "do 'X' and 'Y' have the same venue?"
    if (
        reading.operation != "compare"
        and len(links.hubs) + len(links.values) >= 2
        and asks_together(_masked(question, links))
    ):
        reading = replace(reading, operation="relationship")  # "has A ever worked with B?": what links them
    if reading.operation == "relationship" or (
        _YESNO.match(question) and len(links.hubs) >= 2 and reading.operation != "compare"
    ):
        from kgqa.answering.connections import connection  # (it builds on this module)

        exact = connection(question, links, cat, store)
    negated = reading.operation == "negation" or (reading.operation in ("count", "list") and bool(plan.negated))
    hubs_asked = not plan.asked or names_hubs(plan.asked, cat)  # "which papers ...", not "what are the properties ..."
    if exact is None and negated and not links.hubs and hubs_asked:
        from kgqa.answering.lacking import lacking, negation_start

        if negation_start(question, links) is not None:
            exact = lacking(plan, links, cat, store, embedder, counting=reading.operation == "count")
    if exact is not None:
        pass
    elif reading.operation == "threshold" and plan.threshold is not None:
        exact = _threshold(plan, reading, links, cat, store)
    elif (
        reading.operation == "compare"
        and not links.hubs
        and len(links.values) == 2
        and not re.search(r"\b(no|not|without|never|none)\b|n't\b", question, re.I)
    ):
        exact = _compare_counts(plan, links, cat, store)
    elif (held := _both_roles(plan, links, cat)) is not None:
        exact = held  # "which actors also directed movies"
    elif reading.operation == "rank" and (ranked := _ranked_by_count(plan, links, cat, store)) is not None:
        exact = ranked  # "rank the directors by number of movies"
    elif reading.operation in ("average", "total"):
        from kgqa.answering.summaries import summary  # (it builds on this module)

        exact = summary(plan, reading, links, cat, store)
    elif links.hubs:
        exact = _about_hubs(plan, reading, links, cat)
    elif plan.yes_no and len(links.values) + bool(links.years) >= 2 and reading.operation in ("list", "lookup"):
        from kgqa.answering.verdicts import exists  # (it builds on this module)

        exact = exists(plan, links, cat, store)
    elif reading.operation in ("group", "max", "min") or (
        reading.operation in ("count", "list", "rank") and reading.asked is None
    ):
        if reading.operation in ("max", "min"):  # "who directed the most movies" where people are the hubs
            from kgqa.answering.most_values import hubs_with_most  # (it builds on this module)

            exact = hubs_with_most(plan, reading, links, cat, store)
        exact = exact or _aggregate(plan, reading, links, cat, store)
    elif reading.operation == "rank" and plan.flags.get("top") and reading.asked is not None:
        exact = _asked_of_the_top(plan, reading, links, cat, store)  # "who directed the oldest movie"
    elif reading.operation in ("count", "list") and reading.asked and _names(plan.asked, reading.asked, cat):
        exact = _values_over_hubs(plan, reading.operation, reading.asked, links, cat, store)
    elif (
        reading.operation == "lookup"
        and reading.asked is None
        and links.values
        and (plan.year_range or plan.year_bound or links.years)
    ):
        # "what did X direct in the 60s": the hubs with the value in those years
        exact = _aggregate(plan, replace(reading, operation="list"), links, cat, store)
    elif (
        reading.operation == "lookup"
        and reading.asked
        and len(links.values) + len(links.years) >= 2
        and len(constraints_of(plan, links, cat, skip=reading.asked))
        == len(constraints_of(plan, links, cat, skip=None))
    ):
        # "who wrote the film that X directed in 1953": the value asked of the hubs meeting every named value
        # (not "what genre is the comedy X directed", whose "comedy" is of the attribute asked)
        exact = _values_over_hubs(plan, "list", reading.asked, links, cat, store)
    return _labelled(exact, links, cat) if exact is not None else None


def _labelled(exact: Exact, links: Links, cat: Catalog) -> Exact:
    """`exact` with the graph labels it names and the question's words they were linked from."""
    exact.labels = [cat.hubs[m.hubs[0]] for m in links.hubs] + [m.label for m in links.values] + links.years
    exact.mentions = [m.text for m in links.hubs + links.values]
    return exact


def _both_roles(plan: QuestionPlan, links: Links, cat: Catalog) -> Exact | None:
    from kgqa.answering.both_roles import both_roles  # (it builds on this module)

    return both_roles(plan, links, cat)


def _ranked_by_count(plan: QuestionPlan, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    from kgqa.answering.ranked_counts import ranked_by_count  # (it builds on this module)

    return ranked_by_count(plan, links, cat, store)


def _holder(attribute: str, noun: str = "") -> str:
    """What the answer calls one value of `attribute`: the question's `noun` for its values' type where the
    attribute is a verb ("the department with the most employees", not "the works in"), else the
    attribute as a noun."""
    return singular_phrase(noun.lower()) if noun and verbal(attribute) else singular_phrase(attribute)


_MOST_OF = re.compile(
    r"\b(?:has|have|had|with|scored|scores)\s+the\s+(most|fewest|least|(?:highest|largest|greatest|biggest|lowest|"
    r"smallest)\s+(?:number|amount|count)\s+of)\s+([a-z]+(?: [a-z]+)?)"
)


def _most_of_a_number(plan: QuestionPlan, reading: Reading, cat: Catalog) -> tuple[QuestionPlan, Reading]:
    """A maximum read as the first hubs by a number each states, where the noun after "the most" names such
    a number ("which match had the most home goals": the match with the highest `home goals`, not the
    value most matches share)."""
    most = _MOST_OF.search(plan.question.lower())
    attribute = lexical_attribute(most.group(2), cat, exact=True) if most else None
    if most is None or attribute is None or _stated_numbers(cat, attribute, list(cat.hubs)[:200]) is None:
        return plan, reading
    descending = most.group(1).startswith(("most", "highest", "largest", "greatest", "biggest"))
    flags = {**plan.flags, "top": True, "named_value": True}
    word = "most" if descending else "fewest"
    plan = replace(plan, operation="rank", flags=flags, sort_key=most.group(2), descending=descending, superlative=word)
    plan.limit = plan.limit or 1
    return plan, replace(reading, operation="rank", asked=None, key=attribute, descending=descending)


def _hubs_asked(plan: QuestionPlan, reading: Reading, links: Links, cat: Catalog) -> Reading:
    """The reading with the hubs themselves asked where the asked attribute is only what they are ranked
    or constrained by: "who has the highest salary" (the hub, not the salary), "documentaries from the 50s",
    "which accountants live in berlin" (a value the asked phrase opens with, and another value)."""
    if links.hubs:
        return reading
    if plan.flags.get("top") and reading.operation == "rank" and reading.asked is not None:
        ranked_by = cat.date_attribute(plan.question) if plan.sort_key == "year" else reading.key
        if reading.asked in (reading.key, ranked_by):
            return replace(reading, asked=None)
    if reading.operation in ("list", "count") and plan.asked:
        if any(m.text.casefold() == plan.asked.casefold() for m in links.values):
            return replace(reading, asked=None)
    named = links.values or links.years or plan.year_bound or plan.year_range
    many = plan.asked.split()[-1:] in (["people"], ["persons"]) or plan.plural  # not "which paper ..."
    if reading.operation == "lookup" and reading.asked is None and named and many and names_hubs(plan.asked, cat):
        return replace(reading, operation="list")  # "which people directed movies in finnish"
    people = re.match(r"\s*who\b", plan.question, re.I) and names_hubs("people", cat)
    if people and reading.operation in ("lookup", "list") and named:
        return replace(reading, operation="list", asked=None)  # "who directed movies in finnish", people the hubs
    if reading.operation in ("list", "lookup") and len(links.values) >= 2:
        lead = next((m for m in links.values if plan.asked.casefold().startswith(m.text.casefold() + " ")), None)
        if lead is not None and lexical_attribute(plan.asked[len(lead.text) :].strip(), cat) is None:
            return replace(reading, operation="list", asked=None)
    return reading


def _typed_reading(plan: QuestionPlan, reading: Reading, links: Links, cat: Catalog, store: GraphStore) -> Reading:
    """The reading with the attribute a grouping noun names by its values' type ("which *department* has the
    most employees": works in; "how many *movies* did X direct": directed; "which *team* won the most
    matches": winner, where "team" is also a word of "home team"), where the noun is no attribute's name."""
    about_hubs = bool(links.hubs) and reading.operation in ("count", "list", "lookup")  # "how many movies did X direct"
    if not about_hubs and (links.hubs or reading.operation not in ("max", "min", "group", "threshold")):
        return reading
    phrase = plan.group_key if reading.operation == "group" else plan.asked
    # a noun only part of some labels ("team": home team, away team, winner) may still name the values' type
    if not phrase or names_hubs(phrase, cat) or lexical_attribute(phrase, cat, exact=True) is not None:
        return reading
    typed = attribute_of_type(phrase, cat, store, plan.question)
    if typed is None:
        return reading
    if reading.operation == "group":
        return replace(reading, key=typed, noun=phrase)
    return replace(reading, asked=typed, noun=phrase)


def _top_groups(
    limit: int,
    groups: list[tuple[str, int, list[str]]],
    op: str,
    key: str,
    noun: str,
    constraints: list[Constraint],
    query: dict,
) -> Exact:
    """ "which 3 directors made the most movies": the first `limit` values by their count (and any tied
    with the last of them), each with its count."""
    ordered = sorted(groups, key=lambda g: (-g[1], g[0]) if op == "max" else (g[1], g[0]))
    edge = ordered[min(limit, len(ordered)) - 1][1]
    top = [g for g in ordered if (g[1] >= edge if op == "max" else g[1] <= edge)]
    word = "most" if op == "max" else "fewest"
    listing = join_items([f"{g[0]} ({g[1]})" for g in top])
    what = f"{plural(key)} with the {word} {noun}{_phrase(constraints)}"
    if len(top) > limit:  # ties at the last place: all of them
        text = f"The {what}, the top {number_words(limit)} and those tied with them ({len(top)}) {QUERY}: {listing}."
    else:
        text = f"The {number_words(limit)} {what} {QUERY}: {listing}."
    counts = {g[0]: g[1] for g in top}
    return Exact(text, _result(op, [g[0] for g in top], [g[0] for g in top], counts, query=query))


def _type(cat: Catalog) -> str:
    return cat.hub_type.lower()


def _result(op: str, value: Any, items: list[Any], groups: dict[str, Any] | None = None, **extra: Any) -> dict:
    return {"operation": op, "value": value, "items": items, "groups": groups or {}, **extra}


def _masked(question: str, links: Links) -> str:
    out = question
    for s, e in sorted(links.spans(), reverse=True):
        out = out[:s] + "X" + out[e:]
    return out


def _about_hubs(plan: QuestionPlan, reading: Reading, links: Links, cat: Catalog) -> Exact | None:
    hubs = [m.hubs[0] for m in links.hubs]
    attr = reading.asked or _attribute_in_terms_of(plan.question, cat)
    if reading.operation == "compare" and len(hubs) >= 2:
        if attr is None and _TEMPORAL.search(plan.question):
            attr = cat.date_attribute(plan.question)
        return _compare(plan.question, hubs[0], hubs[1], attr, cat)
    asks_years = bool(links.years or plan.year_bound or plan.year_range)
    if _YESNO.match(plan.question) and len(hubs) == 1 and not links.values and asks_years:
        from kgqa.answering.verdicts import in_years  # (it builds on this module)

        return in_years(plan, links, hubs[0], cat)  # "was X released in 1995?", "did X come out before 1980?"
    checks_a_value = bool(_YESNO.match(plan.question) and links.values)  # "is X a romance movie?": no attribute
    if (attr is None and not checks_a_value) or len(hubs) != 1:
        return None
    if reading.operation in ("rank", "group", "max", "min", "negation"):
        return None
    if links.values and not _YESNO.match(plan.question):
        return None  # "the property evaluated for the research object Y in 'X'": the retrieved facts say which
    if attr in cat.hub_link_attributes() and asks_inverse(_masked(plan.question, links), attr):
        return None  # "who cites X": the hubs that cite X (the relation chain), not what X cites
    hub = hubs[0]
    sources = [(hub, cat.hubs[hub])]
    title = f"'{cat.hubs[hub]}'"
    if checks_a_value:
        wanted = links.values[0]
        stated = [f for f in cat.by_hub.get(hub, []) if f.value.casefold() == wanted.label.casefold()]
        asked_too = cat.of(hub, attr) if attr is not None and stated else []
        kind = _value_kind(wanted.facts[0])
        if (
            attr is not None
            and asked_too
            and all(f.attribute != attr for f in stated)
            and all(_value_kind(f) == kind for f in asked_too)
        ):
            # "did A direct X?" where A is X's writer: the relation asked holds others
            return Exact(
                f"No, {title} has the {attribute_noun(attr, len(asked_too))} "
                f"{join_items([f.value for f in asked_too])} [1], not {wanted.label}.",
                _result("value", "no", [f.value for f in asked_too]),
                sources,
                [t.canonical for f in asked_too for t in f.triples],
            )
        if stated:
            f = stated[0]
            return Exact(
                f"Yes, {title} has the {attribute_noun(f.attribute)} {f.value} [1].",
                _result("value", "yes", [f.value]),
                sources,
                [t.canonical for t in f.triples],
            )
        same = [f for f in cat.by_hub.get(hub, []) if f.attribute == wanted.facts[0].attribute]
        why = join_items([f.value for f in same]) or "not stated"
        return Exact(
            f"No, {title} has the {attribute_noun(wanted.facts[0].attribute, max(len(same), 1))} {why} [1], not {wanted.label}.",
            _result("value", "no", [f.value for f in same]),
            sources,
            [t.canonical for f in same for t in f.triples],
        )
    assert attr is not None
    facts = cat.of(hub, attr)
    via = _via_named(_masked(plan.question, links), attr, cat)
    if via is not None:  # "where did the *founders* of X study": not where its chief executive studied
        facts = [f for f in facts if f.path.via == via] or facts
    triples = [t.canonical for f in facts[:EVIDENCE_MAX] for t in f.triples]
    values = [f.value for f in facts]
    if not facts:
        return Exact(f"The graph states no {attr} for {title}.", _result("value", None, []), sources, [])
    number = _number(values) if reading.operation == "count" and len(values) == 1 else None
    if number is not None:
        # "how many pages does X have": the number the graph states, not one value counted
        return Exact(
            f"{title} has {values[0]} {plural(singular_phrase(attr))} [1].",
            _result("count", _whole(number), values),
            sources,
            triples,
        )
    if reading.operation == "count":
        n = len(values)
        noun = plural(_holder(attr, reading.noun)) if n != 1 else _holder(attr, reading.noun)
        return Exact(
            f"{title} has {number_words(n)} {noun} ({n}) [1]: {written(values)}.",
            _result("count", n, values),
            sources,
            triples,
        )
    verb = "are" if len(values) > 1 else "is"
    name = attribute_noun(attr, len(values))  # "the 'written by' values", never "the written_bies"
    text = f"The {name} of {title} {verb} {written(values)} [1]."
    return Exact(
        text,
        _result("list" if len(values) > 1 else "value", values[0] if len(values) == 1 else None, values),
        sources,
        triples,
    )


def _via_named(masked: str, attribute: str, cat: Catalog) -> str | None:
    """The one relation an attribute's values are reached through that the question names, where the
    catalog reaches them through several (a company's founders and its chief executive both studied
    somewhere)."""
    vias = {p.via for p in cat.paths.get(attribute, []) if p.via}
    named = [v for v in vias if share_a_stem(masked, v)]
    return named[0] if len(vias) >= 2 and len(named) == 1 else None


def _attribute_in_terms_of(question: str, cat: Catalog) -> str | None:
    from kgqa.question.meaning import lexical_attribute

    m = re.search(r"\b(?:in terms of|regarding|with respect to|by)\s+(?:their |its |the )?([\w \-]+)", question, re.I)
    return lexical_attribute(m.group(1), cat) if m else None


def _compare(question: str, a: str, b: str, attr: str | None, cat: Catalog) -> Exact | None:
    attrs = [attr] if attr else [x for x in ("venue", "publication year") if x in cat.paths]
    if not attrs:
        return None
    sources = [(a, cat.hubs[a]), (b, cat.hubs[b])]
    parts, triples = [], []
    groups: dict[str, dict[str, list[str]]] = {}
    verdict = "same"
    for at in attrs:
        left, right = cat.of(a, at), cat.of(b, at)
        lv, rv = [f.value for f in left], [f.value for f in right]
        triples += [t.canonical for f in left + right for t in f.triples]
        groups.setdefault(cat.hubs[a], {})[at] = lv
        groups.setdefault(cat.hubs[b], {})[at] = rv
        common = [v for v in lv if v.casefold() in {x.casefold() for x in rv}]
        if {v.casefold() for v in lv} != {v.casefold() for v in rv}:
            verdict = "different"
        both = f"; both: {join_items(common)}" if common and len(lv) + len(rv) > 2 else ""
        said = attribute_noun(at)
        parts.append(f"{said}: {join_items(lv) or 'not stated'} [1] vs {join_items(rv) or 'not stated'} [2]{both}")
        x, y = _number(lv), _number(rv)
        if len(attrs) == 1 and x is not None and y is not None:
            timeish = any(w in at.lower() for w in ("year", "date"))
            verdict = (
                ("later" if x > y else "earlier" if x < y else "same")
                if timeish
                else ("more" if x > y else "fewer" if x < y else "same")
            )
    text = f"'{cat.hubs[a]}' [1] and '{cat.hubs[b]}' [2] side by side: " + "; ".join(parts) + "."
    asked = _TEMPORAL.search(question) or re.search(r"\b(more|fewer|less)\b", question, re.I)
    if verdict in ("later", "earlier", "more", "fewer") and asked and _YESNO.match(question):
        word = _SAME_AS.get(asked.group(1).lower(), asked.group(1).lower())
        (at,) = attrs
        one, two = join_items(groups[cat.hubs[a]][at]), join_items(groups[cat.hubs[b]][at])
        text = (
            f"{'Yes' if word == verdict else 'No'}, '{cat.hubs[a]}' ({one}) [1] is {verdict} than "
            f"'{cat.hubs[b]}' ({two}) [2] by {attribute_noun(at)}."
        )
    elif verdict in ("later", "earlier", "more", "fewer"):
        text += f" So '{cat.hubs[a]}' is {verdict}{' than' if verdict in ('later', 'earlier') else ''} '{cat.hubs[b]}'."
    elif verdict == "same":
        text += " They are the same."
    if verdict in ("same", "different") and _YESNO.match(question) and re.search(r"\b(same|both)\b", question, re.I):
        text = ("Yes, " if verdict == "same" else "No, ") + text
    return Exact(text, _result("compare", verdict, [cat.hubs[a], cat.hubs[b]], groups), sources, triples)


def _named_attribute(masked: str, cat: Catalog) -> str | None:
    """The attribute whose every word the question writes ("the same venue"), the longest; never one
    that links hubs to hubs."""
    words = {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]+", masked)}

    def written(name: str) -> bool:
        return all(w.lower().rstrip("s") in words for w in re.findall(r"[A-Za-z]+", name))

    # a machine-style name as people say it too ("the same director": `directed_by`)
    found = [a for a in cat.paths if written(a) or written(spoken_name(a))]
    same = re.search(r"\bsame\s+([a-z]{3,})", masked.lower())
    if not found and same:  # "the same license": `licensed under`, by the word's stem
        found = [a for a in cat.paths if share_a_stem(same.group(1), a)]
    links_hubs = cat.hub_link_attributes()
    found = [a for a in found if a not in links_hubs]
    return max(found, key=len) if found else None  # (a link between hubs, such as "cites", is no shared value)


def _compare_counts(plan: QuestionPlan, links: Links, cat: Catalog, store: GraphStore) -> Exact:
    """Two named values side by side by the number of hubs with each (the question's years apply to
    both sides): "Lena Hoffmeier: three papers (3) [query]; Jonas Brettschneider: one paper (1)"."""
    sides = sorted(links.values, key=lambda m: m.start)[:2]
    counts: dict[str, int] = {}
    parts, items, queries = [], [], []
    for m in sides:
        constraints = constraints_of(plan, Links(values=[m], years=links.years), cat, skip=None)
        hubs, query = matching(store, cat, constraints)
        counts[m.label] = len(hubs)
        queries.append(query)
        items += [label for _, label in hubs if label not in items]
        noun = _type(cat) if len(hubs) == 1 else plural(_type(cat))
        what = join_items([f"{singular_phrase(c.attribute)} {c.label}" for c in constraints])
        parts.append(f"{number_words(len(hubs)) if hubs else 'no'} {noun} ({len(hubs)}) with {what}")
    (a, x), (b, y) = counts.items()
    verdict = "more" if x > y else "fewer" if x < y else "same"
    word = {"more": f"more for {a} than for {b}", "fewer": f"fewer for {a} than for {b}"}.get(
        verdict, f"the same number for {a} and {b}"
    )
    text = f"{_cap(parts[0])}, compared to {parts[1]} {QUERY}: {word}."
    return Exact(text, _result("compare", verdict, items, counts, query={"name": queries[0]["name"], "sides": queries}))


def _whole(x: float | None) -> float | int | None:
    """412.0 -> 412 (a count the graph states as a whole number)."""
    return int(x) if x is not None and x.is_integer() else x


def _number(values: list[str]) -> float | None:
    try:
        return float(values[0]) if values else None
    except ValueError:
        return None


def constraints_of(plan: QuestionPlan, links: Links, cat: Catalog, skip: str | None) -> list[Constraint]:
    """The value and year constraints the question's links put on the hubs."""
    out: list[Constraint] = []
    for m in links.values:
        by_attr: dict[str, list[Fact]] = defaultdict(list)
        for f in m.facts:
            if f.hub in cat.hubs:
                by_attr[f.attribute].append(f)
        if not by_attr:
            continue
        # "how many films did X direct" when X both directs and acts: the attribute the question words
        # ("direct" ~ "directed", "write" ~ "screenwriter", "win" ~ "winner"), then the hub's own ("works in" Engineering, not
        # the "owned by" Engineering of its projects), before the one X holds most often
        masked = plan.question.replace(m.text, " ")
        # "which films did X both write and direct": X in each role the question joins with "and"
        # ("who *wrote* the film X directed": not the attribute asked, `skip`, where X holds another)
        held = [at for at in by_attr if at != skip] or list(by_attr)
        roles = joined_roles(masked, list(by_attr)) or [
            max(held, key=lambda at: (words_name(masked, at), not by_attr[at][0].path.via, len(by_attr[at])))
        ]
        for attribute in roles:
            if attribute == skip:
                continue
            facts = _along_the_named_path(by_attr[attribute], masked)
            out.append(Constraint(attribute, facts[0].path, facts[0].value, sorted({f.value_id for f in facts})))
    years = list(links.years)
    if plan.year_range:
        years = [str(y) for y in range(plan.year_range[0], plan.year_range[1] + 1)]
    year_attr = cat.date_attribute(plan.question) if years else None
    if year_attr and year_attr != skip and plan.year_bound:  # "after 2000": every stated year past it
        bound = plan.year_bound
        ids = sorted({f.value_id for f in cat.facts if f.attribute == year_attr and _meets(f.value, bound)})
        out.append(
            Constraint(year_attr, _named_path(cat.paths[year_attr], plan.question), f"{bound[0]} {bound[1]}", ids)
        )
    elif year_attr and year_attr != skip:
        ids = sorted({f.value_id for y in years for f in cat.values.get(y, []) if f.attribute == year_attr})
        if any(_DATE.fullmatch(v.strip()) for v in cat.first_values(year_attr, 20)):  # "hired in 2013": its dates
            wanted = set(years)
            ids = sorted({f.value_id for f in cat.facts if f.attribute == year_attr and f.value.strip()[:4] in wanted})
        label = years[0] if len(years) == 1 else f"{years[0]} to {years[-1]}"
        out.append(Constraint(year_attr, _named_path(cat.paths[year_attr], plan.question), label, ids))
    return out


def _named_path(paths: list[Path], question: str) -> Path:
    """Of an attribute's paths, the one whose link the question names ("which people *directed* movies
    released in 2012": the year through "directed"), else the first."""
    via = the_one_named(question, {p.via for p in paths if p.via})
    return next((p for p in paths if via and p.via == via), paths[0])


def _along_the_named_path(facts: list[Fact], masked: str) -> list[Fact]:
    """Of a value's facts reached along several paths, those along the one whose link the question's words
    name; all of them where it names none or several."""
    vias = {f.path.via for f in facts if f.path.via}
    via = the_one_named(masked, vias) if len(vias) >= 2 else None  # "*directed* movies in finnish"
    return [f for f in facts if f.path.via == via] if via else facts


#: Words that may stand between a role verb and "and" ("act in and direct"), or after "and" ("and also wrote").
_ROLE_FILLERS = frozenset({"in", "on", "for", "to", "also", "then", "both", "as", "well"})


def joined_roles(text: str, attributes: list[str]) -> list[str]:
    """The attributes of a value that `text` (the question without the value) names with verbs joined by
    "and" ("both write and act in" -> screenwriter, cast member): two or more different attributes, each
    named by one side, or nothing. A verb names the attributes it shares a stem with, or whose agent noun
    it has ("act" -> actor)."""
    words = re.findall(r"[a-z]+", text.lower())
    for i, word in enumerate(words):
        if word not in ("and", "&"):
            continue
        left = [w for w in reversed(words[max(0, i - 3) : i]) if w not in _ROLE_FILLERS][:1]
        right = [w for w in words[i + 1 : i + 4] if w not in _ROLE_FILLERS][:1]
        if not left or not right:
            continue
        sides = [[at for at in attributes if _names_role(side[0], at)] for side in (left, right)]
        if all(len(named) == 1 for named in sides) and sides[0][0] != sides[1][0]:
            return [sides[0][0], sides[1][0]]
    return []


def _names_role(verb: str, attribute: str) -> bool:
    return share_a_stem(verb, attribute) or share_a_stem(agent_words(verb), attribute)


def _meets(value: str, bound: tuple[str, int]) -> bool:
    """Whether a stated date ("2004", "2004-05-01") meets a year bound."""
    head = value.strip()[:4]
    return head.isdigit() and year_in_bound(int(head), bound)


def matching(store: GraphStore, cat: Catalog, constraints: list[Constraint]) -> tuple[list[tuple[str, str]], dict]:
    """The hubs meeting every constraint, from one Cypher aggregate over the whole graph (or from the
    catalog's facts where its graph is not in the triple layout: `Catalog.in_cypher`)."""
    if not constraints:
        return sorted(cat.hubs.items(), key=lambda kv: kv[1]), {"name": "catalog", "constraints": []}
    if not cat.in_cypher:
        hubs = cat.hubs_meeting([(c.path, c.ids) for c in constraints])
        return hubs, {"name": "catalog", "constraints": _described(constraints)}
    if any(not c.ids for c in constraints):
        return [], {"name": "answering/matching_hubs", "constraints": _described(constraints)}
    if store.by_key(sum(len(c.ids) for c in constraints), HUB_LOOKUP_S, "Triple"):
        hubs = _matching_by_key(store, cat, constraints)  # the same hubs, read per value id
        return hubs, {"name": "answering/matching_hubs", "constraints": _described(constraints)}
    params = {
        "hub_type": cat.hub_type,
        "needed": len(constraints),
        "constraints": [
            {"k": k, "via": c.path.via, "pred": c.path.pred, "ids": c.ids} for k, c in enumerate(constraints)
        ],
    }
    rows = store.run("answering/matching_hubs", params)
    hubs = sorted(((h[0], h[1]) for h in ((rows[0][1] or []) if rows else [])), key=lambda kv: kv[1])
    return hubs, {"name": "answering/matching_hubs", "constraints": _described(constraints)}


def _matching_by_key(store: GraphStore, cat: Catalog, constraints: list[Constraint]) -> list[tuple[str, str]]:
    """`matching` from one primary-key read per value id, the constraints intersected here."""
    met: dict[str, str] | None = None
    for c in constraints:
        name, params = _one_query("answering/matching_hubs_one", c.path.via, pred=c.path.pred, hub_type=cat.hub_type)
        found = {r[0]: r[1] for r in store.run_each(name, "vid", list(dict.fromkeys(c.ids)), params)}
        met = found if met is None else {h: label for h, label in met.items() if h in found}
        if not met:
            return []
    return sorted((met or {}).items(), key=lambda kv: kv[1])


def _one_query(name: str, via: str | None, **params: str) -> tuple[str, dict[str, str]]:
    """The single-key query `name` and its parameters, or its `_via` form when the attribute is
    reached through an intermediate predicate `via`."""
    return (f"{name}_via", {**params, "via": via}) if via else (name, params)


def _described(constraints: list[Constraint]) -> list[dict[str, str]]:
    return [{"attribute": c.attribute, "value": c.label} for c in constraints]


def grouped(store: GraphStore, cat: Catalog, ids: list[str], attribute: str) -> list[tuple[str, int, list[str]]]:
    """(key, count, hub ids) per value of `attribute` over the hubs `ids` (one Cypher aggregate, or
    the catalog's facts: `Catalog.in_cypher`)."""
    if not cat.in_cypher:
        return cat.hubs_per_value(ids, attribute)
    out: dict[str, tuple[int, list[str]]] = {}
    by_key = bool(ids) and store.by_key(len(ids), HUB_LOOKUP_S, "Triple")
    for path in cat.paths.get(attribute, []):
        rows = (
            _grouped_by_key(store, ids, path.via, path.pred)
            if by_key
            else store.run("answering/group_hubs", {"ids": ids, "via": path.via, "pred": path.pred})
        )
        for key, _n, hubs in rows:
            old = out.get(key, (0, []))
            members = list(dict.fromkeys(old[1] + [h[0] for h in hubs]))
            out[key] = (len(members), members)
    return sorted(((k, n, m) for k, (n, m) in out.items()), key=lambda x: (-x[1], x[0]))


def _grouped_by_key(store: GraphStore, ids: list[str], via: str, pred: str) -> list[tuple[str, int, list[list[str]]]]:
    """The rows of `answering/group_hubs` (key, n, hubs) from one primary-key read per hub."""
    name, params = _one_query("answering/group_hubs_one", via, pred=pred)
    members: dict[str, dict[str, list[str]]] = {}
    for key, hub, label in store.run_each(name, "pid", list(dict.fromkeys(ids)), params):
        members.setdefault(key, {})[hub] = [hub, label]
    return [(key, len(hubs), list(hubs.values())) for key, hubs in members.items()]


def _phrase(constraints: list[Constraint]) -> str:
    """ " with the venue X", " hired in 2013", " using Garlic": the constraints after the hubs' noun."""
    doing = {id(c): _doing(c) for c in constraints}
    held = [f"{singular_phrase(c.attribute)} {c.label}" for c in constraints if not _dated_verb(c) and not doing[id(c)]]
    done = [_when_done(c) if _dated_verb(c) else doing[id(c)] for c in constraints if _dated_verb(c) or doing[id(c)]]
    return (" with " + join_items(held) if held else "") + "".join(f" {d}" for d in done)


def _doing(c: Constraint) -> str:
    """A constraint on a verb said after the hubs' noun ("using Garlic", "written in Rust"; one step further
    "using one belonging to Nut"), "" for a noun or another verb form."""
    if not c.path.via:
        return after_noun(c.path.pred, c.label) or ""
    then = gerund(spoken_name(c.path.pred)) if verbal(c.path.pred) else None
    first = gerund(spoken_name(c.path.via)) if verbal(c.path.via) else None
    return f"{first} one {then} {c.label}" if first and then else ""


def _dated_verb(c: Constraint) -> bool:
    """Whether a year constraint is on an attribute named by one participle ("hired", "released")."""
    words = spoken_name(c.attribute).split()
    return len(words) == 1 and is_participle(words[0].lower()) and c.label[:1].isalnum()


def _when_done(c: Constraint) -> str:
    """ "hired in 2013", "hired after 2020", "hired in 2010 to 2014"."""
    bounded = c.label.split()[0] in ("after", "before")
    return f"{spoken_name(c.attribute)} {c.label if bounded else 'in ' + c.label}"


def _evidence(cat: Catalog, hubs: list[str], constraints: list[Constraint]) -> list[str]:
    out: list[str] = []
    for h in hubs:
        for c in constraints:
            ids = set(c.ids)
            out += [f.triples[-1].canonical for f in cat.of(h, c.attribute) if f.value_id in ids]
    return list(dict.fromkeys(out))


def _aggregate(plan: QuestionPlan, reading: Reading, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    op = reading.operation
    if op in ("max", "min", "group"):
        key = reading.key if op == "group" else (reading.asked or reading.key)
        if key is None and op == "group" and plan.year_range:
            key = cat.date_attribute(plan.question)
        linked = None  # "which package is depended on the most": the hubs most often the value of a link
        if key is None and op != "group" and names_hubs(plan.asked, cat):
            key = linked = the_one_named(plan.rest, sorted(cat.hub_link_attributes()))
        if key is None:
            return None
        constraints = constraints_of(plan, links, cat, skip=key if op != "group" or not plan.year_range else None)
        hubs, query = matching(store, cat, constraints)
        groups = grouped(store, cat, [h for h, _ in hubs], key)
        name = _holder(key, reading.noun)
        if plan.year_range and op == "group":
            lo, hi = plan.year_range
            have = {g[0] for g in groups}
            groups += [(str(y), 0, []) for y in range(lo, hi + 1) if str(y) not in have]
            groups = [g for g in groups if not g[0].isdigit() or lo <= int(g[0]) <= hi]
        noun = plural(_type(cat))
        if not groups:
            return Exact(
                f"No {_type(cat)}{_phrase(constraints)} states a {name} in this graph {QUERY}.",
                _result(op, None, [], query=query),
            )
        if op == "group":
            groups.sort(key=lambda g: (0, int(g[0])) if g[0].isdigit() else (1, g[0]))
            listing = join_items([f"{g[0]}: {g[1]}" for g in groups])
            text = f"{_cap(noun)}{_phrase(constraints)} per {name}: {listing} {QUERY}."
            return Exact(
                text,
                _result("group", sum(g[1] for g in groups), [], {g[0]: g[1] for g in groups}, query=query),
                triples=_evidence(cat, [h for h, _ in hubs], constraints),
            )
        word = "most" if op == "max" else "fewest"
        if plan.limit > 1 and len(groups) > 1:
            return _top_groups(plan.limit, groups, op, name, noun, constraints, query)
        target = groups[0][1] if op == "max" else min(g[1] for g in groups)
        top = [g for g in groups if g[1] == target]
        names = join_items([g[0] for g in top])
        tie = " (tied)" if len(top) > 1 else ""
        holder = name if len(top) == 1 else plural(name)  # "the teachers ... are"
        text = f"The {holder} with the {word} {noun}{_phrase(constraints)} {'are' if len(top) > 1 else 'is'} {names}{tie}: {target} {noun if target != 1 else _type(cat)} {QUERY}."
        if linked and verbal(linked):  # "The packages that the most packages depend on are ..."
            one = _type(cat)
            held = f"{one if len(top) == 1 else plural(one)} that the {word} {noun}{_phrase(constraints)}"
            text = f"The {held} {agreeing(spoken_name(linked), 2)} {'are' if len(top) > 1 else 'is'} {names}{tie}: {target} {noun if target != 1 else one} {QUERY}."
        counts = {g[0]: g[1] for g in groups[: max(SHOWN, len(top))]}
        return Exact(
            text,
            _result(op, top[0][0] if len(top) == 1 else [g[0] for g in top], [g[0] for g in top], counts, query=query),
        )
    constraints = constraints_of(plan, links, cat, skip=None)
    if not constraints and op != "count" and op != "rank":
        return None
    hubs, query = matching(store, cat, constraints)
    labels = [label for _, label in hubs]
    ids = [h for h, _ in hubs]
    noun = plural(_type(cat))
    evidence = _evidence(cat, ids, constraints)
    if op == "count":
        n = len(hubs)
        return Exact(_count_sentence(n, cat, constraints), _result("count", n, labels, query=query), triples=evidence)
    if not hubs:
        return Exact(
            f"There are no {noun}{_phrase(constraints)} in this graph ({0}) {QUERY}.",
            _result("list", None, [], query=query),
        )
    if op == "rank" and (plan.alphabetical or (reading.key is None and _BY_NAME.search(plan.question))):
        order = sorted(ids, key=lambda h: cat.hubs[h].casefold(), reverse=reading.descending)
        numbered = [f"{i}. '{cat.hubs[h]}' [{i}]" for i, h in enumerate(order[:SHOWN], 1)]
        more = f", and {len(order) - SHOWN} more" if len(order) > SHOWN else ""
        direction = "Z to A" if reading.descending else "A to Z"
        text = f"The {len(order)} {noun}{_phrase(constraints)}, by title from {direction} {QUERY}: {'; '.join(numbered)}{more}."
        return Exact(
            text,
            _result("rank", None, [cat.hubs[h] for h in order], query=query),
            [(h, cat.hubs[h]) for h in order],
            evidence,
        )
    if op == "rank":
        key = reading.key
        if plan.sort_key == "year":  # "the oldest course", "newest to oldest": by its date, whatever it is called
            key = cat.date_attribute(plan.question) or key
        if key is None:
            return None
        keys: dict[str, str] = {}
        for k, _, members in grouped(store, cat, ids, key):
            for h in members:
                keys.setdefault(h, k)
        keyed = sorted((h for h in ids if h in keys), key=lambda h: (_sortable(keys[h]), cat.hubs[h]))
        if reading.descending:
            keyed.sort(key=lambda h: _sortable(keys[h]), reverse=True)
        if plan.flags.get("top"):
            if plan.sort_key != "year" and not any(share_a_stem(k, key) for k in plan.sort_key.split("|")):
                return None  # "the most expensive song" where no attribute is a price (not the nearest: rating)
            return _top_by_value(plan, cat, keyed, keys, key, constraints, query)
        order = keyed + [h for h in ids if h not in keys]
        numbered = [f"{i}. '{cat.hubs[h]}' ({keys.get(h, 'not stated')}) [{i}]" for i, h in enumerate(order[:SHOWN], 1)]
        evidence += [f.triples[-1].canonical for h in order for f in cat.of(h, key)]
        more = f", and {len(order) - SHOWN} more" if len(order) > SHOWN else ""
        direction = "descending" if reading.descending else "ascending"
        when = ""
        if _numeric_keys(keys) and key == cat.date_attribute(plan.question):
            when = " (newest first)" if reading.descending else " (oldest first)"
        text = f"The {len(order)} {noun}{_phrase(constraints)}, in {direction} order of {singular_phrase(key)}{when} {QUERY}: {'; '.join(numbered)}{more}."
        return Exact(
            text,
            _result(
                "rank",
                None,
                [cat.hubs[h] for h in order],
                {cat.hubs[h]: keys[h] for h in order if h in keys},
                query=query,
            ),
            [(h, cat.hubs[h]) for h in order],
            list(dict.fromkeys(evidence)),
        )
    n = len(labels)
    some = asked_number(plan.question)
    if some is not None and 0 < some < n:  # "give me 5 movies ...": five of them, and how many there are
        shown = join_items([f"'{x}' [{i}]" for i, x in enumerate(labels[:some], 1)])
        text = (
            f"{_cap(number_words(some))} of the {number_words(n)} {noun}{_phrase(constraints)} ({n}) {QUERY}: {shown}."
        )
        result = {**_result("list", None, labels[:some], query=query), "total": n}
        return Exact(text, result, list(hubs)[:some], evidence)
    shown = join_items([f"'{x}' [{i}]" for i, x in enumerate(labels[:SHOWN], 1)])
    shown += f" and {n - SHOWN} more" if n > SHOWN else ""
    text = f"The {number_words(n) if n > 1 else 'one'} {noun if n > 1 else _type(cat)}{_phrase(constraints)} ({n}) {QUERY}: {shown}."
    return Exact(text, _result("list", None, labels, query=query), list(hubs), evidence)


def _threshold(plan: QuestionPlan, reading: Reading, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    """ "which actors appear in more than 3 movies": the values of the asked attribute with that many hubs;
    "which papers have at least 3 authors": the hubs with that many values of the counted attribute."""
    assert plan.threshold is not None
    side, k = plan.threshold
    bound = THRESHOLD_PHRASE[side]
    # "which directors made more than 2 *comedies*": hubs with a value the counted noun names
    counts_hubs = names_hubs(plan.counted, cat) or any(
        m.text.casefold() in plan.counted.casefold() for m in links.values
    )
    asked = None if names_hubs(plan.asked, cat) else reading.asked
    # "which actors starred in more than one movie *with X*": X's movies, and X is not among the answers
    named = {m.label.casefold() for m in links.values}
    constraints = constraints_of(plan, links, cat, skip=None if named else asked)
    hubs, query = matching(store, cat, constraints)
    ids = [h for h, _ in hubs]
    noun = plural(_type(cat))
    counting = plan.flags.get("count", False)
    if asked is not None and counts_hubs:
        name = _holder(asked, reading.noun)
        groups = [
            g
            for g in grouped(store, cat, ids, asked)
            if meets_threshold(g[1], plan.threshold) and g[0].casefold() not in named
        ]
        if counting:
            text = f"{_cap(number_words(len(groups)))} {plural(name) if len(groups) != 1 else name} ({len(groups)}) {'have' if len(groups) != 1 else 'has'} {bound} {k} {noun}{_phrase(constraints)} {QUERY}."
            return Exact(
                text, _result("count", len(groups), [g[0] for g in groups], {g[0]: g[1] for g in groups}, query=query)
            )
        what = plural(name) if len(groups) != 1 else name
        if not groups:
            text = f"No {name} has {bound} {k} {noun}{_phrase(constraints)} in this graph {QUERY}."
            return Exact(text, _result("list", None, [], query=query))
        listing = written([f"{g[0]} ({g[1]})" for g in groups], SHOWN)
        many = number_words(len(groups)) if len(groups) > 1 else "one"
        text = f"The {many} {what} with {bound} {k} {noun}{_phrase(constraints)} ({len(groups)}) {QUERY}: {listing}."
        return Exact(text, _result("list", None, [g[0] for g in groups], {g[0]: g[1] for g in groups}, query=query))
    # "earn more than 100000": the first of the quantity's nouns the graph states ("salary|income|...")
    attribute = next(filter(None, (lexical_attribute(noun, cat) for noun in plan.counted.split("|"))), None)
    typed: object = attribute is None and (attribute := attribute_of_type(plan.counted, cat, store, plan.question))
    if attribute is None and (attribute := the_one_named(plan.counted, cat.paths)):
        typed = True  # "at least 2 dependencies" (`depends on`): said as the question's noun
    if (plan.flags.get("value_over") or typed) and asked == attribute:
        asked = None  # "who earns more than 100000", "who acted in more than 8 movies": the hubs it holds for
    if asked is not None or attribute is None:
        return None
    # "courses with more than 4 credits": where each hub states one number, the number itself
    numbers = _stated_numbers(cat, attribute, ids)
    per_hub: dict[str, int | float] = (
        numbers if numbers is not None else {h: len({f.value_id for f in cat.own_of(h, attribute)}) for h in ids}
    )
    kept = [h for h in ids if h in per_hub and meets_threshold(per_hub[h], plan.threshold)]
    what = plural(_holder(attribute, plan.counted if typed else ""))
    condition = f"{bound} {k} {what}"  # "more than 4 credits", "more than 8 movies"
    if numbers is not None and plan.flags.get("value_over"):  # "a rating above 8", not "more than 8 ratings"
        condition = f"a {singular_phrase(attribute)} {_NUMBER_SIDE[side]} {k}"
    if counting:
        things = noun if len(kept) != 1 else _type(cat)
        text = f"{_cap(number_words(len(kept)))} {things}{_phrase(constraints)} ({len(kept)}) {'have' if len(kept) != 1 else 'has'} {condition} {QUERY}."
        return Exact(
            text,
            _result(
                "count", len(kept), [cat.hubs[h] for h in kept], {cat.hubs[h]: per_hub[h] for h in kept}, query=query
            ),
            [(h, cat.hubs[h]) for h in kept[:SHOWN]],
        )
    if not kept:
        text = f"No {_type(cat)}{_phrase(constraints)} has {condition} in this graph {QUERY}."
        return Exact(text, _result("list", None, [], query=query))
    shown = join_items([f"'{cat.hubs[h]}' ({per_hub[h]}) [{i}]" for i, h in enumerate(kept[:SHOWN], 1)])
    shown += f" and {len(kept) - SHOWN} more" if len(kept) > SHOWN else ""
    many = number_words(len(kept)) if len(kept) > 1 else "one"
    text = f"The {many} {noun if len(kept) > 1 else _type(cat)}{_phrase(constraints)} with {condition} ({len(kept)}) {QUERY}: {shown}."
    evidence = [f.triples[-1].canonical for h in kept[:SHOWN] for f in cat.own_of(h, attribute)]
    return Exact(
        text,
        _result("list", None, [cat.hubs[h] for h in kept], {cat.hubs[h]: per_hub[h] for h in kept}, query=query),
        [(h, cat.hubs[h]) for h in kept],
        list(dict.fromkeys(evidence)),
    )


def _asked_of_the_top(
    plan: QuestionPlan, reading: Reading, links: Links, cat: Catalog, store: GraphStore
) -> Exact | None:
    """ "who directed the oldest movie", "what genre is the newest film": the asked attribute's values of
    the first hubs by the superlative's value (those tied with the last one too)."""
    assert reading.asked is not None
    top = _aggregate(plan, replace(reading, asked=None), links, cat, store)
    if top is None or not top.sources:
        return None
    asked = reading.asked
    parts = []
    values: dict[str, list[str]] = {}
    for i, (h, label) in enumerate(top.sources, 1):
        stated = sorted({f.value for f in cat.own_of(h, asked)})
        values[label] = stated
        parts.append(f"'{label}' ({top.result['groups'].get(label, '')}): {join_items(stated) or 'not stated'} [{i}]")
    many = len(top.sources) > 1
    name = attribute_noun(asked, 2 if many else max(len(v) for v in values.values()))
    count = f"{plan.limit} " if plan.limit > 1 else ""
    what = f"the {count}{plan.superlative} {plural(_type(cat)) if many else _type(cat)}"
    if len(top.sources) == 1:
        (label, stated), (_, key) = next(iter(values.items())), next(iter(top.result["groups"].items()))
        verb = "are" if len(stated) > 1 else "is"
        said = join_items(stated) if stated else "not stated"
        text = f"The {name} of {what}, '{label}' ({key}), {verb} {said} [1] {QUERY}."
    else:
        text = f"The {name} of {what} {QUERY}: {'; '.join(parts)}."
    items = [v for stated in values.values() for v in stated]
    evidence = top.triples + [f.triples[-1].canonical for h, _ in top.sources for f in cat.own_of(h, asked)]
    return Exact(text, _result("list", items[0] if len(items) == 1 else None, items, values), top.sources, evidence)


def _top_by_value(
    plan: QuestionPlan,
    cat: Catalog,
    keyed: list[str],
    keys: dict[str, str],
    key: str,
    constraints: list[Constraint],
    query: dict[str, Any],
) -> Exact | None:
    """ "the oldest movie", "the 3 longest songs", "the song with the highest rating": the first
    `plan.limit` hubs by the value the superlative names (those tied with the last one too), from `keyed`
    (the hubs with a value, in the order asked); None where the values are no numbers or years."""
    if not keyed or not _numeric_keys({h: keys[h] for h in keyed}):
        return None
    edge = keys[keyed[min(plan.limit, len(keyed)) - 1]]
    top = keyed[: plan.limit] + [h for h in keyed[plan.limit :] if keys[h] == edge]
    items = [cat.hubs[h] for h in top]
    evidence = [f.triples[-1].canonical for h in top for f in cat.of(h, key)]
    one = len(top) == 1
    what = _type(cat) if one else plural(_type(cat))
    if plan.flags.get("named_value"):  # "the song with the highest rating", "the match with the most home goals"
        superlative, named = plan.superlative, singular_phrase(key)
        if superlative in ("most", "fewest") or plural(named) == spoken_name(key) != named:
            named = spoken_name(key)  # a count's noun: "the most pages", "the fewest calories"
            superlative = {"most": "most", "fewest": "fewest"}.get(superlative, "most" if plan.descending else "fewest")
        held = _phrase(constraints)
        head = f"The {what}{held}{' and' if held.startswith(' with') else ' with'} the {superlative} {named}"
    elif plan.flags.get("after_noun"):  # "who was hired first"
        head = f"The {what}{_phrase(constraints)} {plan.superlative}"
    else:  # "the longest song"
        head = f"The {plan.superlative} {what}{_phrase(constraints)}"
    if one:
        text = f"{head} is '{items[0]}' ({keys[top[0]]}) [1] {QUERY}."
    else:
        listing = join_items([f"'{cat.hubs[h]}' ({keys[h]}) [{i}]" for i, h in enumerate(top, 1)])
        text = f"{head}{' (tied)' if len(top) > plan.limit else ''} {QUERY}: {listing}."
    return Exact(
        text,
        _result("rank", items[0] if one else None, items, {cat.hubs[h]: keys[h] for h in top}, query=query),
        [(h, cat.hubs[h]) for h in top],
        list(dict.fromkeys(evidence)),
    )


#: A threshold on a stated number in words ("a rating above 8").
_NUMBER_SIDE = {"more": "above", "fewer": "below", "least": "of at least", "most": "of at most", "exactly": "of"}


def _stated_numbers(cat: Catalog, attribute: str, ids: list[str]) -> dict[str, int | float] | None:
    """Hub -> the number it states for `attribute`, where every hub of `ids` that states the attribute
    states one value and every value is a number ("credits: 5"); else None (the values are counted)."""
    out: dict[str, int | float] = {}
    for h in ids:
        values = {f.value for f in cat.own_of(h, attribute)}
        if len(values) > 1:
            return None
        for v in values:
            number = numeric(v)
            if number is None:
                return None
            out[h] = int(number) if number.is_integer() else number
    return out or None


def _names(asked: str, attribute: str, cat: Catalog) -> bool:
    """Whether the asked phrase names `attribute` word for word or by a verb's stem ("directors" ->
    director, "writers" -> screenwriter), not only by the nearest meaning."""
    from kgqa.question.meaning import lexical_attribute

    return bool(asked) and (lexical_attribute(asked, cat) == attribute or share_a_stem(asked, attribute))


def _values_over_hubs(
    plan: QuestionPlan, op: str, attribute: str, links: Links, cat: Catalog, store: GraphStore
) -> Exact | None:
    """ "How many directors are there?", "list the genres of the movies from 2004": the distinct values
    of an attribute over every hub meeting the question's constraints (the whole graph, not the hubs
    retrieved), most frequent first."""
    constraints = constraints_of(plan, links, cat, skip=attribute)
    if links.values and not constraints:
        return None  # a name the question writes that constrains no hub of this type: not for a count
    hubs, query = matching(store, cat, constraints)
    ids = [h for h, _ in hubs]
    values = _values_in_containers(cat, ids, attribute, constraints)
    n = len(values)
    noun, nouns = attribute_noun(attribute), attribute_noun(attribute, n)
    if "(" in attribute and plan.asked:  # "person (directed)", a rel read backwards: the question's "directors"
        noun = singular_phrase(plan.asked)
        nouns = noun if n == 1 else plural(noun)
    scope = f" of the {plural(_type(cat))}{_phrase(constraints)}"
    evidence = _evidence(cat, ids[:SHOWN], constraints)
    evidence += [f.triples[-1].canonical for h in ids[:SHOWN] for f in cat.of(h, attribute)]
    if op == "count":
        text = f"There {'is' if n == 1 else 'are'} {number_words(n)} {nouns} ({n}){scope} in this graph {QUERY}."
        return Exact(text, _result("count", n, values, query=query), triples=list(dict.fromkeys(evidence)))
    if not values:
        return Exact(f"The graph states no {noun}{scope} {QUERY}.", _result("list", None, [], query=query))
    shown = join_items(values[:SHOWN]) + (f" and {n - SHOWN} more" if n > SHOWN else "")
    text = f"The {number_words(n) if n > 1 else 'one'} {nouns}{scope} ({n}) {QUERY}: {shown}."
    return Exact(text, _result("list", None, values, query=query), triples=list(dict.fromkeys(evidence)))


def _values_in_containers(cat: Catalog, hubs: list[str], attribute: str, constraints: list[Constraint]) -> list[str]:
    """The distinct values of `attribute` over `hubs`, most hubs first. Where a hub states a constraint
    in the same container as some of its values of the attribute (the research object whose
    sub-property is X, and its evaluation methods), only those values count, not those of its other
    containers; a constraint in a container of another kind ("Paper Class 1") restricts the hub only.
    Where the values themselves hold the constraint ("which artists come from Austin" over album hubs:
    the artists whose own city is Austin), only those count, not the album's other artists."""
    hubs_of: dict[str, set[str]] = defaultdict(set)
    for h in hubs:
        facts = cat.of(h, attribute)
        for c in constraints:
            ids = set(c.ids)
            holders = {f.triples[0].object.id for f in cat.of(h, c.attribute) if f.path.via and f.value_id in ids}
            inside = [f for f in facts if f.path.via and f.triples[0].object.id in holders]
            own = [f for f in facts if f.value_id in holders]
            facts = inside or own or facts
        for f in facts:
            hubs_of[f.value].add(f.hub)
    return sorted(hubs_of, key=lambda v: (-len(hubs_of[v]), v.casefold()))


def _count_sentence(n: int, cat: Catalog, constraints: list[Constraint]) -> str:
    """ "Ten papers (10) have the venue X and the publication year 2019 [query]." """
    word = _type(cat) if n == 1 else plural(_type(cat))
    head = f"{'No' if n == 0 else _cap(number_words(n))} {word} ({n})"
    if not constraints:
        return f"{head} {'is' if n == 1 else 'are'} in this graph {QUERY}."
    have = "has" if n == 1 else "have"
    passive = [c for c in constraints if stated_as_passive(c.attribute) or _dated_verb(c)]
    active = [(c, verb_clause(c.attribute, c.label, n)) for c in constraints if c not in passive]
    held = [f"the {singular_phrase(c.attribute)} {c.label}" for c, clause in active if clause is None]
    been = [_when_done(c) if _dated_verb(c) else f"{spoken_name(c.attribute)} {c.label}" for c in passive]
    be = ("was" if n == 1 else "were") if any(_dated_verb(c) for c in passive) else ("is" if n == 1 else "are")
    said = ([f"{have} {join_items(held)}"] if held else []) + ([f"{be} {join_items(been)}"] if been else [])
    said += [clause for _, clause in active if clause]  # "Three persons (3) acted in Moon Storm"
    return f"{head} {' and '.join(said)} {QUERY}."


def _numeric_keys(keys: dict[str, str]) -> bool:
    return bool(keys) and all(_sortable(k)[0] == 0 for k in keys.values())


#: A date as Kùzu and ISO 8601 write it ("2021-03-01", "2021-03", "2021-03-01 00:00:00").
_DATE = re.compile(r"(\d{4})-(\d\d)(?:-(\d\d))?(?:[T ][\d:.]+)?")


def _sortable(value: str) -> tuple:
    """A value's sort key: numbers and dates by their size (a date as its year and the fraction of it gone,
    so that it sorts among plain years), other values by their text."""
    try:
        return (0, float(value))
    except ValueError:
        date = _DATE.fullmatch(value.strip())
        if date:
            return (0, int(date.group(1)) + (int(date.group(2)) - 1) / 12 + (int(date.group(3) or 1) - 1) / 372)
        return (1, value.casefold())


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _value_kind(fact: Fact) -> tuple[bool, tuple[str, ...]]:
    """What a fact's value is: a literal or not, and its types (a writer and a director are both people;
    a venue is no publication year)."""
    value = fact.triples[-1].object if fact.triples else None
    return (value.is_literal, value.types) if value is not None else (True, ())
