"""The structured result of an answer: what programs read instead of parsing sentences."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OPERATIONS = ("value", "list", "count", "rank", "max", "min", "compare", "group", "negation")


@dataclass
class AnswerResult:
    """`operation` performed; `value` (a count, the top value, a comparison verdict, a single value);
    `items` (the answer's items, in answer order); `groups` (group key -> count or values)."""

    operation: str
    value: Any = None
    items: list[Any] = field(default_factory=list)
    groups: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "operation": self.operation,
            "value": self.value,
            "items": list(self.items),
            "groups": dict(self.groups),
        }
