"""The LLM seam: a provider's client (`LLMClient`) and HubLink's four query-time roles (spec §2–4,
`AnswerRoles`) as protocols, and the records that cross them."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from kgqa.llm.budget import TokenBudget
from kgqa.llm.cost import estimate_tokens
from kgqa.llm.prompts import REPAIR
from kgqa.types import Hub, PartialAnswer, ScoredTriple

T = TypeVar("T")


@dataclass
class TokenUsage:
    """LLM calls and tokens spent (zero for the offline provider). Replies served from the
    response cache count as `cache_hits` and spend nothing. `add` is safe across threads."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hits: int = 0
    cost_usd: float = 0.0  # estimated from a static price table; NaN when the model's price is unknown
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def total(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    def add(
        self,
        *,
        calls: int = 0,
        input_tokens: int = 0,
        output_tokens: int = 0,
        cache_hits: int = 0,
        cost_usd: float = 0.0,
    ) -> None:
        """Account for requests sent (or served from the cache)."""
        with self._lock:
            self.calls += calls
            self.input_tokens += input_tokens
            self.output_tokens += output_tokens
            self.cache_hits += cache_hits
            self.cost_usd += cost_usd

    def merge(self, other: TokenUsage) -> None:
        """Add another usage record to this one."""
        self.add(
            calls=other.calls,
            input_tokens=other.input_tokens,
            output_tokens=other.output_tokens,
            cache_hits=other.cache_hits,
            cost_usd=other.cost_usd,
        )

    def as_dict(self) -> dict[str, Any]:
        """For JSON output."""
        cost = None if math.isnan(self.cost_usd) else round(self.cost_usd, 6)
        return {
            "calls": self.calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "total_tokens": self.total,
            "cache_hits": self.cache_hits,
            "estimated_cost_usd": cost,
        }


@dataclass(frozen=True)
class LLMRequest:
    """One chat request: a system prompt and alternating turns, ending with the user's."""

    kind: str  # which prompt (for the cache and for reports)
    system: str
    turns: tuple[tuple[str, str], ...]  # (role, text)
    max_tokens: int
    temperature: float | None = None  # None: the model's default (not sent)

    @classmethod
    def single(cls, kind: str, system: str, user: str, max_tokens: int) -> LLMRequest:
        """A request with one user turn."""
        return cls(kind, system, (("user", user),), max_tokens)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The turns as chat messages (`{"role", "content"}`)."""
        return [{"role": role, "content": text} for role, text in self.turns]

    def repaired(self, bad_reply: str, problem: str) -> LLMRequest:
        """The follow-up request after an unusable reply: the reply, then a correction."""
        shown = (bad_reply.strip() or "(empty reply)")[:2000]
        fix = REPAIR.render(problem=problem)
        return LLMRequest(
            self.kind,
            self.system,
            self.turns + (("assistant", shown), ("user", fix)),
            self.max_tokens,
            self.temperature,
        )

    def estimated_input_tokens(self) -> int:
        """Tokens the prompt is expected to take (characters / 4, plus a little per turn)."""
        return estimate_tokens(self.system) + sum(estimate_tokens(t) + 4 for _, t in self.turns)


@dataclass(frozen=True)
class LLMReply:
    """The reply text and what it cost (a cached reply cost nothing now)."""

    text: str
    input_tokens: int
    output_tokens: int
    cached: bool = False


class LLMClient(Protocol):
    """One LLM provider's connection (kgqa/llm/providers/): sends requests, accounts for their tokens
    in `usage` and against `budget`, and parses replies. `kgqa.llm.cached_client.CachedClient`
    implements all of it but the one call to the provider."""

    provider: str  # the registry name ("anthropic"); recorded with LLM path texts in the index metadata
    model: str

    @property
    def can_send(self) -> bool:
        """False when the client may only look up cached replies (no API key, say)."""
        ...

    def is_cached(self, request: LLMRequest) -> bool:
        """Whether a reply to `request` is stored (sending it would cost nothing)."""
        ...

    def send(
        self, request: LLMRequest, *, usage: TokenUsage | None = None, budget: TokenBudget | None = None
    ) -> LLMReply:
        """The reply to `request`."""
        ...

    def send_parsed(
        self,
        request: LLMRequest,
        parse: Callable[[str], T],
        *,
        usage: TokenUsage | None = None,
        budget: TokenBudget | None = None,
    ) -> T:
        """`parse(reply)`; an unparsable reply is answered once with a correction turn, then LLMReplyError."""
        ...

    def close(self) -> None:
        """Release connections and files."""
        ...


@dataclass
class HubContext:
    """What answering from one hub may use: the hub, its best paths' triples with relevance,
    and linked external knowledge (thesis Alg. 17–18)."""

    hub: Hub
    triples: list[ScoredTriple]
    link_text: str = ""


@dataclass
class FinalAnswer:
    """The answer text with `[i]` citations, the sources the numbers refer to, and the structured
    result of the operation the question asks for (kgqa/answering)."""

    text: str
    sources: list[tuple[int, str, str]]  # (number, hub id, hub label)
    result: dict[str, Any] | None = None  # {"operation", "value", "items", "groups"}


class AnswerRoles(Protocol):
    """The LLM roles used at query time; `usage` accumulates tokens spent. `client` is the LLM client
    the roles send through (None: no LLM, as offline), `budget` the question's token budget, `notes`
    what the answer's reader should know about how the roles went."""

    name: str
    usage: TokenUsage

    @property
    def client(self) -> LLMClient | None:
        """The LLM client (None when the roles use no LLM)."""
        ...

    @property
    def budget(self) -> TokenBudget:
        """The per-question token budget requests are reserved against."""
        ...

    @property
    def notes(self) -> list[str]:
        """Budget, unusable replies, skipped hubs: what happened that the reader should know."""
        ...

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

    def select_triples(
        self, question: str, answer: FinalAnswer, partials: list[PartialAnswer], candidates: list[ScoredTriple]
    ) -> list[ScoredTriple]:
        """The supporting triples, most relevant first."""
        ...
