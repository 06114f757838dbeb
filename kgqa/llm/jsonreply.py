"""Robust parsing of structured LLM replies: code fences and prose around the JSON are tolerated."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()


class ReplyFormatError(ValueError):
    """The reply holds no JSON value of the expected shape."""


def extract_json(text: str, kind: type = object) -> Any:
    """The first JSON value in `text` that is an instance of `kind` (e.g. list or dict).

    Looks inside ```json fences first, then anywhere in the text (so "Here you go: [..]" works)."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for chunk in candidates:
        for i, ch in enumerate(chunk):
            if ch not in "[{":
                continue
            try:
                value, _ = _DECODER.raw_decode(chunk, i)
            except json.JSONDecodeError:
                continue
            if isinstance(value, kind):
                return value
    raise ReplyFormatError(f"no JSON {getattr(kind, '__name__', 'value')} in the reply")


def as_int_list(value: Any) -> list[int]:
    """Integers from a JSON list (numbers or numeric strings); anything else is an error."""
    if not isinstance(value, list):
        raise ReplyFormatError("expected a list of numbers")
    out = []
    for v in value:
        if isinstance(v, bool):
            raise ReplyFormatError("expected a list of numbers")
        if isinstance(v, (int, float)) and int(v) == v:
            out.append(int(v))
        elif isinstance(v, str) and v.strip().lstrip("[").rstrip("]").isdigit():
            out.append(int(v.strip().lstrip("[").rstrip("]")))
        else:
            raise ReplyFormatError(f"expected a number, got {v!r}")
    return out
