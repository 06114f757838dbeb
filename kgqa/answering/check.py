"""Checks an answer text (e.g. an LLM's) against the structured result the offline rules computed:
the count, the top value, the items (in order for a ranking), the group counts, the comparison."""

from __future__ import annotations

import re
from typing import Any

from kgqa.answering.words import WORD_NUMBERS, number_words

_VERDICT_WORDS = {
    "later": ("later", "after", "more recent", "newer"),
    "earlier": ("earlier", "before", "older"),
    "more": ("more", "higher", "greater", "larger", "exceed"),
    "fewer": ("fewer", "less", "lower", "smaller"),
    "same": ("same", "equal", "also", "both", "as many"),
    "different": ("whereas", "while", "different", "differ", "only", "but"),
}


def _has_number(text: str, n: int) -> bool:
    low = text.lower()
    return (
        bool(re.search(rf"\b{n}\b", low))
        or bool(re.search(rf"\b{re.escape(number_words(n))}\b", low))
        or (n == 1 and "once" in low)
        or (n == 2 and "twice" in low)
    )


def _mentions(text: str, value: Any) -> bool:
    return str(value).casefold() in text.casefold()


def mismatches(text: str, result: dict[str, Any] | None) -> list[str]:
    """What the text fails to state of the result (empty when it agrees or nothing is checkable)."""
    if not result:
        return []
    text = re.sub(r"\[\d+(?:\s*,\s*\d+)*\]", " ", text)  # citation numbers are not stated values
    op, value, items, groups = (
        result.get("operation"),
        result.get("value"),
        result.get("items") or [],
        result.get("groups") or {},
    )
    out: list[str] = []
    if op == "count" and isinstance(value, int) and not _has_number(text, value):
        out.append(f"the answer does not state the count {value}")
    elif op in ("max", "min"):
        tops = value if isinstance(value, list) else [value]
        missing = [v for v in tops if v is not None and not _mentions(text, v)]
        if missing:
            out.append(
                f"the answer does not name the {'most' if op == 'max' else 'least'} frequent value "
                f"{', '.join(map(str, missing))}"
            )
    elif op in ("value", "list", "negation", "rank"):
        missing = [i for i in items if not _mentions(text, i)]
        if value in ("yes", "no") and op == "value":
            missing = [] if re.search(rf"\b{value}\b", text.lower()) else [value]
        if missing:
            out.append(
                f"the answer does not state {len(missing)} of {len(items) if value not in ('yes', 'no') else 1} "
                f"item(s): {', '.join(map(str, missing[:5]))}"
            )
        elif op == "rank":
            positions = [text.casefold().find(str(i).casefold()) for i in items]
            if positions != sorted(positions):
                out.append("the answer lists the ranked items in another order than the ranking")
    elif op == "group":
        bad = [
            k
            for k, n in groups.items()
            if isinstance(n, int) and n and not (_mentions(text, k) and _has_number(text, n))
        ]
        if bad:
            out.append(f"the answer does not state the group count(s) for {', '.join(bad[:5])}")
    elif op == "compare" and isinstance(value, str):
        if not any(w in text.lower() for w in _VERDICT_WORDS.get(value, (value,))):
            out.append(f"the answer does not make the comparison ({value})")
    return out


def parse_count(text: str) -> int | None:
    """The first whole number a text states in digits or words (None when none)."""
    for m in re.finditer(r"\b\d+\b|\b[a-z]+\b", text.lower()):
        w = m.group()
        if w.isdigit():
            return int(w)
        if w in WORD_NUMBERS:
            return WORD_NUMBERS[w]
    return None
