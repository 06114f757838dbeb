"""The operations themselves, over the selected facts: each returns the structured result and the cited
items the sentences are made of. Counts are of distinct entities (sources or distinct values)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace

from kgqa.answering.facts import Evidence, asked_attributes, best_attributes, numeric
from kgqa.answering.question import QuestionPlan
from kgqa.answering.result import AnswerResult
from kgqa.answering.words import content_words, in_text, is_negative_value, same_word


@dataclass
class Item:
    """An answer item (a source's label or a distinct value) with the sources that state it."""

    text: str
    sources: list[int] = field(default_factory=list)
    key: str = ""  # its sort or group key value
    is_source: bool = False


@dataclass
class Outcome:
    """What the renderer needs: the result, the items, the attribute(s) asked and keys used."""

    result: AnswerResult
    items: list[Item]
    asked_attrs: list[str] | None
    key_attr: str = ""
    side_items: tuple[list[Item], list[Item]] = field(default_factory=lambda: ([], []))
    side_names: tuple[str, str] = ("", "")
    explicit: dict[int, str] = field(default_factory=dict)  # negation: source -> explicit "no" value
    group_items: dict[str, list[Item]] = field(default_factory=dict)


def answer_items(
    plan: QuestionPlan, ev: Evidence, sources: list[int] | None = None
) -> tuple[list[Item], list[str] | None]:
    """The asked items over `sources` (all by default): the sources themselves, or the distinct
    non-constraint values of the asked attribute(s)."""
    sources = sources if sources is not None else sorted(ev.labels)
    attrs = asked_attributes(plan.asked, ev)
    if attrs is None and not plan.asked and plan.yes_no and not _names_any(ev):
        return [], None  # "did X win an oscar?": facts that state nothing the question names are no "yes"
    if attrs is None and not plan.asked and plan.operation in ("value", "list"):
        free = [f.attribute for f in ev.facts if not f.constraint]
        attrs = list(dict.fromkeys(free)) or None
    if attrs is None:
        return [Item(ev.labels[s], [s], is_source=True) for s in sources], None
    items: dict[str, Item] = {}
    for f in ev.of(attrs):
        if f.source not in sources or (f.negative and not plan.yes_no) or (f.constraint and not plan.yes_no):
            continue
        item = items.setdefault(f.value.casefold(), Item(f.value))
        if f.source not in item.sources:
            item.sources.append(f.source)
    return list(items.values()), attrs


def _names_any(ev: Evidence) -> bool:
    """Whether the question writes a value of the facts or a word of their attributes ("does X make its
    *tool support* available?": the "uses tool support" facts)."""
    if any(f.constraint for f in ev.facts):
        return True
    words = content_words(ev.question)
    return any(same_word(w, q) for f in ev.facts for w in content_words(f.attribute) for q in words)


def key_of(ev: Evidence, attrs: list[str], source: int) -> str:
    """The first value of `attrs` a source states ("" when none)."""
    return next((f.value for f in ev.of(attrs, source)), "")


def perform(plan: QuestionPlan, ev: Evidence) -> Outcome:
    """Run the plan's operation over the evidence."""
    op = plan.operation
    if op == "rank":
        return _rank(plan, ev)
    if op == "group":
        return _group(plan, ev)
    if op == "compare":
        return _compare(plan, ev)
    if op in ("max", "min"):
        return _extreme(plan, ev)
    if op == "negation":
        return _negation(plan, ev)
    items, attrs = answer_items(plan, ev)
    if op == "count":
        if plan.negated:  # "how many papers have no input data": count what lacks the property
            lacking = _negation(plan, ev)
            items, attrs = lacking.items, lacking.asked_attrs
        return Outcome(AnswerResult("count", len(items), [i.text for i in items]), items, attrs)
    op = "list" if len(items) > 1 else "value"
    value = items[0].text if len(items) == 1 else None
    if plan.yes_no and items:
        value = "no" if all(_negative(i.text) for i in items) else "yes"
    return Outcome(AnswerResult(op, value, [i.text for i in items]), items, attrs)


def _negative(text: str) -> bool:
    return is_negative_value(text) or bool(re.search(r"\b(not|no)\b", text.lower()))


def _sort_value(key: str, alphabetical: bool) -> tuple:
    n = numeric(key)
    if alphabetical or n is None:
        return (1, key.casefold())
    return (0, n)


def _rank(plan: QuestionPlan, ev: Evidence) -> Outcome:
    items, attrs = answer_items(plan, ev)
    key_attrs = [] if plan.alphabetical else best_attributes(plan.sort_key, ev.attributes())
    if plan.flags.get("top") and not key_attrs:  # "the highest rated movie" where no fact states a rating
        return Outcome(AnswerResult("rank", None, [], {}), [], attrs, key_attr=plan.sort_key)
    if key_attrs:
        for it in items:
            keys = [key_of(ev, key_attrs, s) for s in it.sources]
            keys = [k for k in keys if k]
            it.key = (max if plan.descending else min)(keys, key=lambda k: _sort_value(k, False)) if keys else ""
    else:
        for it in items:
            it.key = it.text
    keyed = [i for i in items if i.key]
    keyed.sort(key=lambda i: _sort_value(i.key, plan.alphabetical or not key_attrs), reverse=plan.descending)
    ordered = keyed + [i for i in items if not i.key]
    name = key_attrs[0] if key_attrs else "name"
    result = AnswerResult(
        "rank", None, [i.text for i in ordered], {i.text: i.key for i in ordered if key_attrs and i.key}
    )
    return Outcome(result, ordered, attrs, key_attr=name)


def _group(plan: QuestionPlan, ev: Evidence) -> Outcome:
    key_attrs = best_attributes(plan.group_key or "year", ev.attributes())
    groups: dict[str, list[Item]] = {}
    for s in sorted(ev.labels):
        key = key_of(ev, key_attrs, s) if key_attrs else ""
        if not key:
            continue
        items, _ = answer_items(plan, ev, [s])
        bucket = groups.setdefault(key, [])
        for it in items:
            same = next((b for b in bucket if b.text.casefold() == it.text.casefold()), None)
            if same:
                same.sources += [x for x in it.sources if x not in same.sources]
            else:
                bucket.append(it)
    if plan.year_range:
        lo, hi = plan.year_range
        groups = {k: v for k, v in groups.items() if (n := numeric(k)) is None or lo <= n <= hi}
        for y in range(lo, hi + 1):
            groups.setdefault(str(y), [])
    ordered = dict(sorted(groups.items(), key=lambda kv: _sort_value(kv[0], False)))
    _, attrs = answer_items(plan, ev)
    result = AnswerResult("group", sum(len(v) for v in ordered.values()), [], {k: len(v) for k, v in ordered.items()})
    return Outcome(
        result,
        [i for v in ordered.values() for i in v],
        attrs,
        key_attr=key_attrs[0] if key_attrs else plan.group_key,
        group_items=ordered,
    )


def _extreme(plan: QuestionPlan, ev: Evidence) -> Outcome:
    items, attrs = answer_items(plan, ev)
    if attrs is None:  # "which paper has the most X": count each source's free facts
        for it in items:
            it.key = str(sum(1 for f in ev.facts if f.source == it.sources[0] and not f.constraint))
        counts = {it.text: int(it.key) for it in items}
    else:
        counts = {it.text: len(it.sources) for it in items}
    if not counts:
        return Outcome(AnswerResult(plan.operation, None, []), [], attrs)
    target = (max if plan.operation == "max" else min)(counts.values())
    top = [it for it in items if counts[it.text] == target]
    result = AnswerResult(
        plan.operation,
        top[0].text if len(top) == 1 else [t.text for t in top],
        [t.text for t in top],
        dict(Counter(counts).most_common()),
    )
    return Outcome(result, top, attrs)


def _side_anchor(text: str, ev: Evidence, last: bool) -> str:
    """The anchor nearest the comparison word in one side's text: a source title, a constraint value
    or a year written there."""
    found: list[tuple[int, str]] = []
    low = text.lower()
    for label in ev.labels.values():
        if in_text(label, text):
            pos = low.find(label.lower()[:20])
            found.append((pos if pos >= 0 else 0, label))
    for f in ev.facts:
        if f.constraint and in_text(f.value, text):
            pos = low.find(f.value.lower())
            found.append((pos if pos >= 0 else len(low) // 2, f.value))
    for m in re.finditer(r"\b(1[89]\d\d|20\d\d)\b", text):
        found.append((m.start(), m.group(1)))
    if not found:
        return ""
    found.sort()
    return found[-1][1] if last else found[0][1]


def _sources_with(anchor: str, ev: Evidence) -> list[int]:
    out = [s for s, label in ev.labels.items() if label.casefold() == anchor.casefold()]
    out += [f.source for f in ev.facts if f.value.casefold() == anchor.casefold() and f.source not in out]
    return sorted(set(out))


def _compare(plan: QuestionPlan, ev: Evidence) -> Outcome:
    left, right = _side_anchor(plan.sides[0], ev, last=True), _side_anchor(plan.sides[1], ev, last=False)
    polar = bool(plan.negated) and bool(re.search(r"\b(no|not|without|never|none)\b|n't", plan.sides[0].lower()))
    if left and right and left.casefold() != right.casefold() and not polar:
        ls, rs = _sources_with(left, ev), _sources_with(right, ev)
    elif not left and not right and not polar:  # neither side names anything the facts state
        return Outcome(AnswerResult("compare", None, []), [], None)
    elif not polar or not plan.negated:  # a side the selected facts do not state: said so, not guessed
        left, right = left or "the first side", right if right and right != left else "the second side"
        ls, rs = _sources_with(left, ev), _sources_with(right, ev)
    else:  # "how many have not used X compared to those that have": sides by the negated attribute
        neg_attrs = best_attributes(plan.negated, ev.attributes())
        rs = sorted({f.source for f in ev.of(neg_attrs) if not f.negative})
        ls = sorted(s for s in ev.labels if s not in rs)
        named = f"'{neg_attrs[0]}'" if neg_attrs else plan.negated
        left, right = f"without {named}", f"with {named}"
    temporal = re.search(r"\b(earlier|later|before|after|older|newer|sooner)\b", plan.question.lower())
    if temporal and not plan.flags.get("count") and asked_attributes(plan.asked, ev) is None:
        key = best_attributes("year", ev.attributes()) or best_attributes("date", ev.attributes())
        if key:
            plan = replace(plan, asked=key[0])
    li, attrs = answer_items(plan, ev, ls)
    ri, _ = answer_items(plan, ev, rs)
    counting = plan.flags.get("count") or attrs is None
    if counting:
        a, b = len(li), len(ri)
        verdict = "more" if a > b else "fewer" if a < b else "same"
        result = AnswerResult("compare", verdict, [], {left: a, right: b})
    else:
        lv, rv = [i.text for i in li], [i.text for i in ri]
        nums = [n for n in map(numeric, lv + rv) if n is not None]
        if lv and rv and len(nums) == len(lv) + len(rv):
            x, y = nums[0], nums[len(lv)]  # the first value of each side
            timeish = any("year" in at.lower() or "date" in at.lower() for at in attrs or [])
            verdict = (
                ("later" if x > y else "earlier" if x < y else "same")
                if timeish
                else ("more" if x > y else "fewer" if x < y else "same")
            )
        else:
            verdict = "same" if {v.casefold() for v in lv} == {v.casefold() for v in rv} else "different"
        result = AnswerResult("compare", verdict, [], {left: lv, right: rv})
    return Outcome(result, li + ri, attrs, side_items=(li, ri), side_names=(left, right))


def _negation(plan: QuestionPlan, ev: Evidence) -> Outcome:
    neg_attrs = best_attributes(plan.negated, ev.attributes())
    keep, explicit = [], {}
    for s in sorted(ev.labels):
        stated = ev.of(neg_attrs, s)
        if any(not f.negative for f in stated):
            continue  # the source has the property
        if not neg_attrs and plan.negated and any(in_text(plan.negated, f.value) for f in ev.facts if f.source == s):
            continue  # "not evaluated with a case study": the source states the negated value
        keep.append(s)
        if stated:
            explicit[s] = stated[0].value
    items, attrs = answer_items(plan, ev, keep)
    result = AnswerResult(
        "negation",
        None,
        [i.text for i in items],
        {
            "explicit": [ev.labels[s] for s in keep if s in explicit],
            "no fact": [ev.labels[s] for s in keep if s not in explicit],
        },
    )
    return Outcome(result, items, attrs, key_attr=neg_attrs[0] if neg_attrs else "", explicit=explicit)
