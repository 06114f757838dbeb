"""Sentences for each operation, written from the graph's labels (attribute names, source and value
labels, the constraints the question wrote as the graph labels them) and the structured result, never
from spliced question words; every claim carries the `[i]` citations of the sources that state it."""

from __future__ import annotations

import re

from kgqa.answering.facts import Evidence
from kgqa.answering.operations import Item, Outcome
from kgqa.answering.question import QuestionPlan
from kgqa.answering.words import agreeing, count_phrase, gerund, in_text, join_items, number_words, plural, singular
from kgqa.question.components import VERB_FORMS
from kgqa.question.verbs import AGENT_NOUNS, agent_noun, share_a_stem

_RELATION_VERBS = frozenset(
    "cites contains includes references mentions follows precedes extends implements requires supports".split()
)
_PREPOSITIONS = frozenset("of in by to from with at on for under".split())
#: Participles that do not end in -ed / -en ("born in", "set in", "made in").
_PARTICIPLES = frozenset("born set made built held shot sold led found bought taught".split())
#: Past forms of verbs that take no object, which an "-ed" label states actively ("acted in", "worked on").
_ACTIVE_PASTS = frozenset(
    "acted starred worked lived played appeared performed participated studied died served competed stayed"
    " travelled traveled graduated retired".split()
)


_NEGATION = re.compile(r"\b(no|not|without|never|none|lack|lacking|lacks|missing)\b|n't\b")


def cite(sources: list[int]) -> str:
    """`[1][3]`."""
    return "".join(f"[{s}]" for s in sorted(set(sources)))


def item_text(item: Item, with_key: bool = False) -> str:
    """An item with its citations; titles of sources in quotes."""
    text = f"'{item.text}'" if item.is_source else item.text
    key = f" ({item.key})" if with_key and item.key else ""
    return f"{text}{key} {cite(item.sources)}"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def _be(n: int) -> str:
    return "is" if n == 1 else "are"


#: Prepositions before a unit in an attribute's name ("length *in* seconds", "cost *per* unit").
_UNIT_WORDS = frozenset({"in", "per"})


def singular_phrase(phrase: str) -> str:
    """ "threats to validity" -> "threat to validity", "evaluation methods" -> "evaluation method", "length
    in seconds" as it is; a machine-style predicate name as people say it ("directed_by" -> "director",
    "has_genre" -> "genre")."""
    by = phrase.lower().split()
    passive = len(by) == 2 and by[1] == "by" and is_participle(by[0])  # "taught by": "teacher"
    words = (spoken_name(phrase) if "_" in phrase or passive or opens_a_noun(phrase) else phrase).split()
    if "to" in words or "of" in words:
        k = (words.index("to") if "to" in words else words.index("of")) - 1
        words[k] = singular(words[k])
    elif any(w in _UNIT_WORDS for w in words[1:]):
        pass  # "length in seconds", "cost per unit": as it is
    elif words:
        words[-1] = singular(words[-1])
    return " ".join(words)


def verbal(attribute: str) -> bool:
    """Whether an attribute name reads as a verb phrase ("uses dataset", "cites", "located in"), not a
    noun ("authors", "evaluation method")."""
    words = _spoken(attribute).lower().split()
    if not words:
        return False
    return (
        words[0] in VERB_FORMS
        or words[0] in _RELATION_VERBS
        or (words[0].endswith("ed") and len(words[0]) > 4 and len(words) == 1)  # not "starred actors"
        or (len(words) > 1 and words[-1] in _PREPOSITIONS)
    )


#: Words that open a predicate's name before the noun it holds ("has_genre", "IN_GENRE", "OF_CUISINE").
LEADING_WORDS = frozenset({"has", "have", "in", "of", "at", "on", "from"})
_LEADING = re.compile(rf"^({'|'.join(sorted(LEADING_WORDS))})\s+(?=\w)", re.IGNORECASE)


def opens_a_noun(label: str) -> bool:
    """Whether a label is one word before a noun, as a rel table's name reads ("IN_GENRE": "in genre",
    "OF_CUISINE", "has tag"), said as the noun alone."""
    words = label.replace("_", " ").lower().split()
    return len(words) == 2 and words[0] in LEADING_WORDS


def _spoken(attribute: str) -> str:
    """ "has_genre" -> "genre", "directed_by" -> "directed by": a predicate name as words."""
    return _LEADING.sub("", attribute.replace("_", " ").strip())


def spoken_name(attribute: str) -> str:
    """A machine-style predicate name as people say it: "directed_by" -> "director", "written_by" -> "writer" (the verb's agent noun of its own stem), other
    names as words ("has_genre" -> "genre", "starred_actors" -> "starred actors")."""
    spoken = _spoken(attribute)
    verb, _, by = spoken.lower().partition(" ")
    if by == "by":
        agents = [a for a in AGENT_NOUNS.get(verb, "").split() if share_a_stem(a, verb)]
        return agents[0] if agents else agent_noun(verb) or spoken  # "published_by": "publisher"
    return spoken


def is_participle(word: str) -> bool:
    """Whether `word` reads as a past participle ("directed", "written", "taught", "born")."""
    return word.endswith(("ed", "en")) or word in _PARTICIPLES


def stated_as_passive(attribute: str) -> bool:
    """Whether an attribute reads as a participle and its preposition ("born in", "set in", "based_in"),
    so that its hubs *are* it ("two books are set in Lisbon") rather than *have* it."""
    words = spoken_name(attribute).lower().split()
    return (
        len(words) == 2
        and words[1] in _PREPOSITIONS - {"of", "by"}
        and is_participle(words[0])
        and words[0] not in _ACTIVE_PASTS
    )


def verb_clause(attribute: str, label: str, n: int) -> str | None:
    """An attribute that reads as a verb phrase, stated of `n` subjects with the value `label` ("acted in
    Moon Storm", "work in Sales" of several, "works in Sales" of one); None for a noun or a passive."""
    phrase = spoken_name(attribute).lower()
    if not verbal(attribute) or stated_as_passive(attribute) or not phrase or not verbal(phrase):
        return None  # (a label spoken as a noun, "directed_by" as "director", is held, not done)
    return f"{agreeing(phrase, 1 if n == 1 else 2)} {label}"  # "works in" of several (or none): "work in"


def in_the_passive(label: str) -> bool:
    """Whether a label is a participle and its preposition, "by" included ("written in", "licensed under",
    "maintained by"), which is said with "is" ("'X' is written in Rust")."""
    words = label.replace("_", " ").lower().split()
    return stated_as_passive(label) or (len(words) == 2 and words[1] == "by" and is_participle(words[0]))


def after_noun(attribute: str, label: str) -> str | None:
    """A verb attribute with its value as words after a noun, alike for one or several: "written in Rust",
    "maintained by Ada", "using Garlic"; None for a noun attribute or another verb form."""
    if not verbal(attribute):
        return None
    if in_the_passive(attribute):
        return f"{' '.join(attribute.replace('_', ' ').lower().split())} {label}"
    doing = gerund(spoken_name(attribute))
    return f"{doing} {label}" if doing else None


def attribute_noun(attribute: str, n: int = 1) -> str:
    """An attribute's name as a noun ("evaluation methods", "director" for "directed_by"; "'uses dataset'
    values" for a verb phrase)."""
    attribute = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in spoken_name(attribute).split())
    if verbal(attribute):
        return f"'{attribute}' value{'' if n == 1 else 's'}"
    noun = singular_phrase(attribute)
    return noun if n == 1 else plural(noun)


def _type_noun(ev: Evidence) -> str:
    return sorted(ev.types)[0].lower() if ev.types else "source"


def qualifier(ev: Evidence, negated: str = "", skip: tuple[str, ...] = ()) -> str:
    """ " with venue ICSA and publication year 2019": the constraints the question wrote, as the graph
    labels them (a value the question negates is said as " without ...")."""
    seen: dict[tuple[str, str], str] = {}
    done: dict[tuple[str, str], str] = {}
    lacking: dict[str, str] = {}
    for f in ev.facts:
        if f.constraint and (f.attribute in skip or f.value in skip):
            continue
        if f.constraint and negated and in_text(f.value, negated):
            lacking.setdefault(f.value.casefold(), f"{attribute_noun(f.attribute)} {f.value}")
        elif f.constraint and (said := after_noun(f.attribute, f.value)):
            done.setdefault((f.attribute, f.value.casefold()), said)  # "written in Rust"
        elif f.constraint:
            seen.setdefault((f.attribute, f.value.casefold()), f"{attribute_noun(f.attribute)} {f.value}")
    parts = list(seen.values())[:3]
    out = f" with {join_items(parts)}" if parts else ""
    out += "".join(f" {d}" for d in list(done.values())[:3])
    return out + (f" without {join_items(list(lacking.values()))}" if lacking else "")


def subject(out: Outcome, ev: Evidence, n: int, negated: str = "", skip: tuple[str, ...] = ()) -> str:
    """What the answer is about, from labels: "the evaluation methods of the papers with venue X",
    "the doi of 'X'", "the papers with author Y" ("... without evaluation method Case study")."""
    qual = qualifier(ev, negated, skip)
    typ = _type_noun(ev)
    if out.asked_attrs:
        sources = sorted({s for i in out.items for s in i.sources})
        owner = f"'{ev.labels[sources[0]]}'{qual}" if len(sources) == 1 else f"the {plural(typ)}{qual}"
        return f"the {attribute_noun(out.asked_attrs[0], n)} of {owner}"
    return f"the {typ if n == 1 else plural(typ)}{qual}"


def render(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    """The answer text for the outcome of `plan` over `ev`, written from the graph's labels and the
    structured result (never from the question's words)."""
    op = out.result.operation
    if not out.items and (op not in ("compare", "group") or (op == "compare" and not any(out.side_names))):
        if out.asked_attrs:
            return f"The selected facts state no {attribute_noun(out.asked_attrs[0])} that satisfies the question."
        asked = f" ('{plan.asked}')" if plan.asked else ""
        return f"The selected facts state nothing the question asks for{asked}."
    body = {
        "count": _count,
        "rank": _rank,
        "max": _extreme,
        "min": _extreme,
        "group": _group,
        "compare": _compare,
        "negation": _negation,
    }.get(op, _value)(plan, out, ev)
    return " ".join([body] + constraint_sentences(plan, out, ev))


def _value(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    counted = _counted_value(plan, out, ev)
    if counted:
        return counted
    items = join_items([item_text(i) for i in out.items])
    head = f"{_cap(subject(out, ev, len(out.items)))} {_be(len(out.items))} {items}."
    if plan.yes_no:
        word = "Yes" if out.result.value == "yes" else "No"
        sources = sorted({s for i in out.items for s in i.sources})
        if out.asked_attrs and len(sources) == 1 and not qualifier(ev):
            noun = attribute_noun(out.asked_attrs[0], len(out.items))
            return f"{word}, '{ev.labels[sources[0]]}' has the {noun} {items}."
        return f"{word}: {head[0].lower()}{head[1:]}"
    return head


def _counted_value(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    """ "'X' has 10 minutes [1]." where the one value asked is a number of what a plural attribute names
    ("minutes", "pages", "calories"); "" otherwise."""
    if plan.yes_no or len(out.items) != 1 or not out.asked_attrs or qualifier(ev):
        return ""
    item, name = out.items[0], spoken_name(out.asked_attrs[0])
    sources = sorted(set(item.sources))
    if len(sources) != 1 or not re.fullmatch(r"\d[\d.,]*", item.text) or verbal(name):
        return ""
    if plural(singular_phrase(name)) != name or singular_phrase(name) == name:
        return ""
    return f"'{ev.labels[sources[0]]}' has {item.text} {name} {cite(item.sources)}."


def _count(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    n = out.result.value
    sources = sorted({s for i in out.items for s in i.sources})
    if out.asked_attrs:
        what = f"{_count_words(n)} {attribute_noun(out.asked_attrs[0], n)} ({n})"
        typ = _type_noun(ev)
        owner = (
            f"'{ev.labels[sources[0]]}'"
            if len(sources) == 1 and not qualifier(ev)
            else f"the {plural(typ)}{qualifier(ev)}"
        )
        text = f"There {_be(n)} {what} of {owner} {cite(sources)}."
    else:
        text = f"There {_be(n)} {count_phrase(n, _type_noun(ev))}{qualifier(ev)} {cite(sources)}."
    if out.asked_attrs is not None and 1 < n <= 12:
        text += f" They are {join_items([item_text(i) for i in out.items])}."
    return text


def _count_words(n: int) -> str:
    return "no" if n == 0 else number_words(n)


def _rank(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    direction = "descending" if plan.descending else "ascending"
    how = (
        f"{direction} alphabetical order"
        if plan.alphabetical or out.key_attr == "name"
        else f"{direction} order of their {out.key_attr}"
    )
    numbered = [f"{k}. {item_text(i, with_key=out.key_attr != 'name')}" for k, i in enumerate(out.items, start=1)]
    head = _cap(subject(out, ev, len(out.items)))
    return f"{head}, ranked in {how}, {_be(len(out.items))}: {join_items(numbered)}."


def _extreme(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    counts = out.result.groups
    typ = _type_noun(ev)
    unit = plural(typ)
    total = len(ev.labels)
    word = "most frequent" if out.result.operation == "max" else "least frequent"
    if out.asked_attrs:
        parts = [f"{item_text(i)} ({counts[i.text]} of {total} {unit})" for i in out.items]
        head = f"The {word} {attribute_noun(out.asked_attrs[0])} of the {unit}{qualifier(ev)}"
    else:
        parts = [f"{item_text(i)} ({counts[i.text]} stated values)" for i in out.items]
        most = "most" if out.result.operation == "max" else "fewest"
        head = f"The {typ}{qualifier(ev)} with the {most} stated values"
    if len(out.items) > 1:
        return f"{head} {_be(2)} tied: {join_items(parts)}."
    return f"{head} is {parts[0]}."


def _group(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    if not out.group_items:
        return f"The selected facts state no {out.key_attr or 'group key'} to group by."
    noun = attribute_noun(out.asked_attrs[0]) if out.asked_attrs else _type_noun(ev)
    listing = join_items(
        [
            f"{count_phrase(len(v), noun).rsplit(' (', 1)[0]} in {k}"
            f"{' ' + cite([s for i in v for s in i.sources]) if v else ''}"
            for k, v in out.group_items.items()
        ]
    )
    return f"{_cap(subject(out, ev, 2, skip=(out.key_attr,)))}, per {out.key_attr}: {listing}."


def _compare(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    (left, right), (li, ri) = out.side_names, out.side_items
    lc, rc = cite([s for i in li for s in i.sources]), cite([s for i in ri for s in i.sources])
    verdict = out.result.value
    if isinstance(next(iter(out.result.groups.values()), None), int):
        noun = attribute_noun(out.asked_attrs[0]) if out.asked_attrs else _type_noun(ev)
        a, b = out.result.groups[left], out.result.groups[right]
        word = {
            "more": f"more for {left} than for {right}",
            "fewer": f"fewer for {left} than for {right}",
            "same": f"the same number for {left} and {right}",
        }[verdict]
        among = qualifier(ev, skip=(left, right))
        lead = f"Among the {plural(_type_noun(ev))}{among}, for" if among else "For"
        return (
            f"{lead} {left}: {count_phrase(a, noun)} {lc}, compared to {count_phrase(b, noun)} for {right} {rc}, "
            f"so {word}."
        )
    attr = attribute_noun(out.asked_attrs[0]) if out.asked_attrs else "value"
    lv, rv = (
        join_items([item_text(i) for i in li]) or "not stated",
        join_items([item_text(i) for i in ri]) or "not stated",
    )
    if verdict in ("later", "earlier", "more", "fewer"):
        word = {"later": "later than", "earlier": "earlier than", "more": "more than", "fewer": "less than"}[verdict]
        yes = ""
        if plan.yes_no or re.match(r"(?i)(was|were|is|are|did|does|has|have)\b", plan.question.strip()):
            asked = re.search(r"\b(earlier|later|before|after|older|newer|more|fewer|less)\b", plan.question.lower())
            same = {"before": "earlier", "older": "earlier", "after": "later", "newer": "later", "less": "fewer"}
            if asked:
                yes = "Yes, " if same.get(asked.group(1), asked.group(1)) == verdict else "No, "
        sentence = f"the {attr} of '{left}' is {lv}, which is {word} the {attr} of '{right}', {rv}."
        return yes + sentence if yes else _cap(sentence)
    if verdict == "same" and li and ri and len(li) == 1 and len(ri) == 1:
        return f"The {attr} of '{left}' is {lv}, the same as the {attr} of '{right}', {rv}."
    common = [i.text for i in li if i.text.casefold() in {j.text.casefold() for j in ri}]
    tail = f" Both state {join_items(common)}." if common else " They have none in common."
    return f"The {plural(attr)} of '{left}' are {lv}, whereas those of '{right}' are {rv}.{tail}"


def _negation(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    items = join_items([item_text(i) for i in out.items])
    negation = _NEGATION.search(ev.question.lower())
    head = _cap(subject(out, ev, len(out.items), ev.question[negation.end() :] if negation else plan.negated))
    if out.key_attr and not out.asked_attrs:
        head += f" that state no {attribute_noun(out.key_attr)}"
    text = f"{head} {_be(len(out.items))} {items}."
    explicit = sorted(s for i in out.items for s in i.sources if s in out.explicit)
    silent = sorted({s for i in out.items for s in i.sources if s not in out.explicit})
    values = sorted({out.explicit[s] for s in explicit})
    if explicit:
        text += f" {_cap(attribute_noun(out.key_attr))} is stated explicitly as {join_items([repr(v) for v in values])} {cite(explicit)}."
    named = next((f.value for f in ev.facts if plan.negated and in_text(plan.negated, f.value)), "")
    if silent and out.key_attr:
        text += f" No {attribute_noun(out.key_attr)} is stated at all for {cite(silent)}."
    elif silent and named:
        text += f" None of them states {named} {cite(silent)}."
    return text


def constraint_sentences(plan: QuestionPlan, out: Outcome, ev: Evidence) -> list[str]:
    """With several constraints, one sentence per constraint group naming the sources that meet it."""
    if plan.operation == "compare":
        return []
    cited = {s for i in out.items for s in i.sources}
    groups: dict[tuple[str, str], list[int]] = {}
    names: dict[tuple[str, str], str] = {}
    for f in ev.facts:
        if f.constraint and f.source in cited and not re.fullmatch(r"\d{4}", f.value):
            key = (f.attribute, f.value.casefold())
            names.setdefault(key, f.value)
            groups.setdefault(key, []).append(f.source)
    if len(groups) < 2:
        return []
    return [f"{names[key]} ({key[0].lower()}) holds for {cite(srcs)}." for key, srcs in groups.items()]
