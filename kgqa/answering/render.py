"""Sentences for each operation, restating the question declaratively; every claim carries the `[i]`
citations of the sources that state it."""

from __future__ import annotations

import re

from kgqa.answering.facts import Evidence
from kgqa.answering.operations import Item, Outcome
from kgqa.answering.question import QuestionPlan, analyse
from kgqa.answering.words import count_phrase, join_items, number_words, plural, singular
from kgqa.question.components import VERB_FORMS

_AUX = frozenset("is are was were has have had does do did".split())
_TOKENS = re.compile(r"'[^']*'|\"[^\"]*\"|\S+")
_IRREGULAR_PAST = {
    "write": "wrote",
    "make": "made",
    "do": "did",
    "give": "gave",
    "find": "found",
    "take": "took",
    "get": "got",
    "have": "had",
    "co-write": "co-wrote",
    "run": "ran",
    "build": "built",
    "see": "saw",
}
_PREPOSITIONS = frozenset("of in by for with from on at to among about".split())
_GROUP_TAIL = re.compile(
    r"\s*,?\s*\b(?:(?:per|for each|for every)\s+(?:the\s+)?[\w\-]+(?:\s+years?)?|"
    r"(?:distributed|grouped|broken down)(?:\s+(?:by|across|over|between|among)\s+"
    r"(?:their |its |the )?[\w\-]+(?:\s+years?)?(?:\s+\d{4}\s+(?:and|to)\s+\d{4})?)?)\b",
    re.IGNORECASE,
)
_HOW_OFTEN = re.compile(r"(?i)^.*?\bhow\s+(?:often|frequently|many\s+times)\s+")


def cite(sources: list[int]) -> str:
    """`[1][3]`."""
    return "".join(f"[{s}]" for s in sorted(set(sources)))


def item_text(item: Item, with_key: bool = False) -> str:
    """An item with its citations; titles of sources in quotes."""
    text = f"'{item.text}'" if item.is_source else item.text
    key = f" ({item.key})" if with_key and item.key else ""
    return f"{text}{key} {cite(item.sources)}"


def _verbish(word: str) -> bool:
    w = word.lower()
    return w in VERB_FORMS or w == "been" or (w.endswith("ed") and len(w) > 4)


def _inverted(rest: str) -> tuple[str, str, str, str] | None:
    """For "has the paper 'X' been published in ...": (aux, subject, verbs, remainder)."""
    toks = _TOKENS.findall(rest)
    if len(toks) < 3 or toks[0].lower() not in _AUX or _verbish(toks[1]):
        return None
    for i in range(2, len(toks)):
        if not toks[i].startswith(("'", '"')) and _verbish(toks[i]):
            j = i + 1
            while j < len(toks) and _verbish(toks[j]) and toks[j].lower() not in _PREPOSITIONS:
                j += 1
            return toks[0].lower(), " ".join(toks[1:i]), " ".join(toks[i:j]), " ".join(toks[j:])
    if toks[0].lower() in ("do", "does", "did") and not toks[-1].startswith(("'", '"')):
        return toks[0].lower(), " ".join(toks[1:-1]), toks[-1], ""  # "did X write": the last word is the verb
    return None


def _inflect(aux: str, verbs: str) -> str:
    first, _, others = verbs.partition(" ")
    if aux == "does":
        first = first + ("es" if first.endswith(("s", "sh", "ch", "x")) else "s")
    elif aux == "did":
        first = _IRREGULAR_PAST.get(first.lower()) or (
            first
            if first.endswith("ed")
            else (first[:-1] + "ied" if first.endswith("y") else first + ("d" if first.endswith("e") else "ed"))
        )
    elif aux != "do":
        return f"{aux} {verbs}"
    return f"{first} {others}".strip()


def _clause(plan: QuestionPlan, finite: bool = False) -> str:
    """ "the papers that apply the evaluation method Field Experiment" (non-inverted questions); with
    `finite`, a verb after the noun is read as the clause's verb ("how many papers applied ...")."""
    rest = plan.rest.strip()
    first = rest.split(" ", 1)[0].lower() if rest else ""
    inv = _inverted(rest) if first in ("do", "does", "did") else None
    if inv:  # "which papers did X publish" -> "the papers that X published"
        return f"the {plan.asked} that {inv[1]} {_inflect(inv[0], inv[2])} {inv[3]}".strip()
    participle = not finite and _verbish(first) and first.endswith(("ed", "en"))
    glue = (
        ""
        if not rest
        or first in ("that", "which", "who")
        or first in _PREPOSITIONS
        or participle
        or first.endswith("ing")
        else "that "
    )
    if participle or first in _PREPOSITIONS:
        rest = _relative_finite_verb(rest)
    return f"the {plan.asked} {glue}{rest}".strip()


def _relative_finite_verb(rest: str) -> str:
    """ "published at X in 2020 were not evaluated ..." -> "published at X in 2020 that were not ...":
    the finite verb after a participle phrase starts a relative clause."""
    toks = _TOKENS.findall(rest)
    for i in range(1, len(toks)):
        w = toks[i].lower()
        if toks[i].startswith(("'", '"')) or w in ("that", "which", "who"):
            return rest
        if w in _AUX or (w in VERB_FORMS and not w.endswith(("ed", "ing", "en"))):
            return " ".join(toks[:i] + ["that"] + toks[i:])
    return rest


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def _be(n: int) -> str:
    return "is" if n == 1 else "are"


def _noun(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    if out.asked_attrs is not None and plan.asked:
        return singular_phrase(plan.asked)
    if plan.asked:
        return singular_phrase(plan.asked)
    return sorted(ev.types)[0] if ev.types else "source"


def singular_phrase(phrase: str) -> str:
    """ "threats to validity" -> "threat to validity", "evaluation methods" -> "evaluation method"."""
    words = phrase.split()
    if "to" in words or "of" in words:
        k = (words.index("to") if "to" in words else words.index("of")) - 1
        words[k] = singular(words[k])
    elif words:
        words[-1] = singular(words[-1])
    return " ".join(words)


def render(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    """The answer text for the outcome of `plan` over `ev`."""
    op = out.result.operation
    if not out.items and op not in ("compare", "group"):
        what = plan.asked or "answer"
        return f"The selected facts state no {what} that satisfies the question."
    body = {
        "count": _count,
        "rank": _rank,
        "max": _extreme,
        "min": _extreme,
        "group": _group,
        "compare": _compare,
        "negation": _negation,
    }.get(op, _value)(plan, out, ev)
    if plan.lead and re.match(r"(The|There|Per|For) ", body):
        body = f"{plan.lead} {body[0].lower()}{body[1:]}"
    return " ".join([body] + constraint_sentences(plan, out, ev))


def _value(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    items = join_items([item_text(i) for i in out.items])
    if plan.yes_no:
        return _yes_no(plan, out, items)
    inv = _inverted(plan.rest) if plan.asked else None
    if inv:
        aux, subject, verbs, remainder = inv
        prep = f"{plan.prep} " if plan.prep else ""
        return f"{_cap(subject)} {_inflect(aux, verbs)} {prep}{items}{' ' + remainder if remainder else ''}."
    if not plan.asked:
        return f"The answer is {items}."
    return f"{_cap(_clause(plan))} {_be(len(out.items))} {items}."


def _yes_no(plan: QuestionPlan, out: Outcome, items: str) -> str:
    yes = out.result.value == "yes"
    toks = _TOKENS.findall(plan.question.strip().rstrip("?"))
    aux, rest = toks[0].lower(), " ".join(toks[1:])
    inv = _inverted(plan.question.strip().rstrip("?"))
    if inv:
        _, subject, verbs, remainder = inv
        statement = f"{subject} {aux}{'' if yes else ' not'} {verbs}{' ' + remainder if remainder else ''}"
    else:
        statement = f"{rest} ({aux}{'' if yes else ' not'})"
    return f"{'Yes' if yes else 'No'}, {statement}: {items}."


def _count(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    n = out.result.value
    noun = _noun(plan, out, ev)
    sources = sorted({s for i in out.items for s in i.sources})
    inv = _inverted(plan.rest) if plan.rest else None
    if inv and plan.asked:
        aux, subject, verbs, remainder = inv
        text = f"{_cap(subject)} {_inflect(aux, verbs)} {count_phrase(n, noun)}{' ' + remainder if remainder else ''} {cite(sources)}."
    elif plan.asked:
        rest = _clause(plan, finite=True)[len(f"the {plan.asked} ") :]
        text = f"There {_be(n)} {count_phrase(n, noun)} {rest} {cite(sources)}."
    else:
        text = f"The count is {number_words(n)} ({n}) {cite(sources)}."
    if out.asked_attrs is not None and 1 < n <= 12:
        text += f" They are {join_items([item_text(i) for i in out.items])}."
    return text


def _rank(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    direction = "descending" if plan.descending else "ascending"
    how = (
        f"{direction} alphabetical order"
        if plan.alphabetical or out.key_attr == "name"
        else f"{direction} order of their {out.key_attr}"
    )
    numbered = [f"{k}. {item_text(i, with_key=out.key_attr != 'name')}" for k, i in enumerate(out.items, start=1)]
    head = _cap(_clause(plan)) if plan.asked else "The items"
    return f"{head}, ranked in {how}, {_be(len(out.items))}: {join_items(numbered)}."


def _extreme(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    counts = out.result.groups
    unit = "papers" if not ev.types else plural(sorted(ev.types)[0])
    total = len(ev.labels)
    parts = [f"{item_text(i)} ({counts[i.text]} of {total} {unit})" for i in out.items]
    head = _clause(plan) if plan.asked else "the answer"
    if not re.search(r"\b(most|least|fewest|highest|lowest)\b", head.lower()):
        word = "most frequent" if out.result.operation == "max" else "least frequent"
        head = head.replace("the ", f"the {word} ", 1)
    head = _cap(head)
    if len(out.items) > 1:
        return f"{head} {_be(2)} tied: {join_items(parts)}."
    return f"{head} is {parts[0]}."


def _group(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    noun = _noun(plan, out, ev)
    listing = join_items(
        [
            f"{count_phrase(len(v), noun).rsplit(' (', 1)[0]} in {k}"
            f"{' ' + cite([s for i in v for s in i.sources]) if v else ''}"
            for k, v in out.group_items.items()
        ]
    )
    if not out.group_items:
        return f"The selected facts state no {out.key_attr or 'group key'} to group by."
    rest = _GROUP_TAIL.sub("", plan.rest).strip()
    inv = _inverted(rest)
    if inv:
        aux, subject, verbs, remainder = inv
        remainder = _GROUP_TAIL.sub("", remainder)
        return f"{_cap(subject)} {_inflect(aux, verbs)}{' ' + remainder if remainder else ''}, per {out.key_attr}: {listing}."
    if plan.asked:
        clause = _GROUP_TAIL.sub("", _clause(plan))
        return f"{_cap(clause)}, per {out.key_attr}: {listing}."
    return f"Per {out.key_attr}: {listing}."


def _compare(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    (left, right), (li, ri) = out.side_names, out.side_items
    lc, rc = cite([s for i in li for s in i.sources]), cite([s for i in ri for s in i.sources])
    verdict = out.result.value
    if isinstance(next(iter(out.result.groups.values()), None), int):
        noun = _noun(plan, out, ev) if plan.asked else (sorted(ev.types)[0] if ev.types else "source")
        a, b = out.result.groups[left], out.result.groups[right]
        word = {
            "more": f"more for {left} than for {right}",
            "fewer": f"fewer for {left} than for {right}",
            "same": f"the same number for {left} and {right}",
        }[verdict]
        context = _after(plan.sides[1], right)
        side = analyse(plan.sides[0].strip())
        inv = _inverted(_HOW_OFTEN.sub("", plan.sides[0].strip()))
        if side.asked and not inv:
            return (
                f"The number of {_clause(side, finite=True)[4:]}{context} is {number_words(a)} ({a}) {lc}, "
                f"compared to {number_words(b)} ({b}) for {right} {rc}, so {word}."
            )
        lead = f"{_cap(inv[1])} {_inflect(inv[0], inv[2])} {inv[3]}".strip() if inv else f"For {left}"
        return (
            f"{lead}{context}: {count_phrase(a, noun)} {lc}, compared to {count_phrase(b, noun)} "
            f"for {right} {rc}, so {word}."
        ).replace("  ", " ")
    attr = plan.asked or (out.asked_attrs or ["value"])[0].lower()
    attr = singular_phrase(attr)
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


def _after(text: str, anchor: str) -> str:
    """What `text` says after `anchor` (", in papers that ..."), without the question mark."""
    low = text.lower()
    k = low.find(anchor.lower())
    if k < 0:
        return ""
    tail = text[k + len(anchor) :].strip().rstrip("?").strip()
    return f" {tail}" if tail else ""


def _negation(plan: QuestionPlan, out: Outcome, ev: Evidence) -> str:
    items = join_items([item_text(i) for i in out.items])
    head = _cap(_clause(plan)) if plan.asked else "The answer"
    text = f"{head} {_be(len(out.items))} {items}."
    explicit = sorted(s for i in out.items for s in i.sources if s in out.explicit)
    silent = sorted({s for i in out.items for s in i.sources if s not in out.explicit})
    values = sorted({out.explicit[s] for s in explicit})
    if explicit:
        text += (
            f" {_cap(out.key_attr)} is stated explicitly as {join_items([repr(v) for v in values])} {cite(explicit)}."
        )
    if silent and out.key_attr:
        text += f" No {out.key_attr} fact is stated at all for {cite(silent)}."
    elif silent and plan.negated:
        text += f" None of them states {plan.negated} {cite(silent)}."
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
