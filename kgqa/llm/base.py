"""HubLink's four LLM roles (spec §2–4) as one protocol, and the records that cross it."""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

from kgqa.types import Hub, Triple


@dataclass
class TokenUsage:
    """LLM calls and tokens spent (zero for the offline provider). Replies served from the
    response cache count as `cache_hits` and spend nothing. `add` is safe across threads."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hits: int = 0
    cost_usd: float = 0.0          # estimated from a static price table; NaN when the model's price is unknown
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def total(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    def add(self, *, calls: int = 0, input_tokens: int = 0, output_tokens: int = 0, cache_hits: int = 0,
            cost_usd: float = 0.0) -> None:
        """Account for requests sent (or served from the cache)."""
        with self._lock:
            self.calls += calls
            self.input_tokens += input_tokens
            self.output_tokens += output_tokens
            self.cache_hits += cache_hits
            self.cost_usd += cost_usd

    def merge(self, other: TokenUsage) -> None:
        """Add another usage record to this one."""
        self.add(calls=other.calls, input_tokens=other.input_tokens, output_tokens=other.output_tokens,
                 cache_hits=other.cache_hits, cost_usd=other.cost_usd)

    def as_dict(self) -> dict[str, Any]:
        """For JSON output."""
        cost = None if math.isnan(self.cost_usd) else round(self.cost_usd, 6)
        return {"calls": self.calls, "input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "total_tokens": self.total, "cache_hits": self.cache_hits, "estimated_cost_usd": cost}


@dataclass(frozen=True)
class ScoredTriple:
    """A triple from a hub with its relevance to the question."""

    triple: Triple
    score: float
    hub_id: str
    per_query: tuple[float, ...] = ()  # relevance to the question (0) and to each component (1..)


@dataclass
class HubContext:
    """What answering from one hub may use: the hub, its best paths' triples with relevance,
    and linked external knowledge (thesis Alg. 17–18)."""

    hub: Hub
    triples: list[ScoredTriple]
    link_text: str = ""


@dataclass
class PartialAnswer:
    """A hub's contribution to the answer (None from the role means the hub declined)."""

    hub_id: str
    hub_label: str
    text: str
    triples: list[ScoredTriple] = field(default_factory=list)
    hub_types: tuple[str, ...] = ()  # the hub root's types ("Paper"): what "which papers" asks for


@dataclass
class FinalAnswer:
    """The answer text with `[i]` citations, the sources the numbers refer to, and the structured
    result of the operation the question asks for (kgqa/answering)."""

    text: str
    sources: list[tuple[int, str, str]]  # (number, hub id, hub label)
    result: dict[str, Any] | None = None  # {"operation", "value", "items", "groups"}


class AnswerRoles(Protocol):
    """The LLM roles used at query time; `usage` accumulates tokens spent."""

    name: str
    usage: TokenUsage

    def extract_components(self, question: str) -> list[str]:
        """The question's components (entities, types, times, constraints)."""
        ...

    def partial_answer(self, question: str, context: HubContext) -> PartialAnswer | None:
        """What this hub contributes, or None when it holds nothing relevant."""
        ...

    def partial_answers(self, question: str, contexts: list[HubContext]) -> list[PartialAnswer | None]:
        """`partial_answer` for many hubs (providers may run them concurrently); same order as `contexts`."""
        ...

    def final_answer(self, question: str, partials: list[PartialAnswer]) -> FinalAnswer:
        """Combine partial answers into one answer whose claims cite their hub as [i]."""
        ...

    def select_triples(self, question: str, answer: FinalAnswer, partials: list[PartialAnswer],
                       candidates: list[ScoredTriple]) -> list[ScoredTriple]:
        """The supporting triples, most relevant first."""
        ...
