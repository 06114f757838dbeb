"""The provider-independent half of an `LLMClient`: response cache, token accounting, budget, and
structured replies with one corrective retry. A provider subclasses `CachedClient` and implements
`_complete` (one call to its API) and `can_send`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from kgqa.errors import ConfigError, LLMReplyError
from kgqa.llm.base import LLMReply, LLMRequest, TokenUsage
from kgqa.llm.budget import TokenBudget
from kgqa.llm.cache import CachedReply, ResponseCache, request_key
from kgqa.llm.cost import estimate_cost
from kgqa.llm.jsonreply import ReplyFormatError

T = TypeVar("T")


class CachedClient:
    """Sends requests through `_complete` (or serves them from the cache) and accounts for them."""

    provider = "llm"
    #: Why nothing can be sent (raised as ConfigError when `can_send` is False and the cache misses).
    cannot_send = "this LLM client cannot send requests"

    def __init__(self, model: str, cache: ResponseCache | None) -> None:
        self.model = model
        self.cache = cache

    @property
    def can_send(self) -> bool:
        """False when only cache look-ups and estimates work."""
        return True

    def _complete(self, request: LLMRequest) -> LLMReply:
        """One request to the provider: the reply text and the tokens it spent."""
        raise NotImplementedError

    def key(self, request: LLMRequest) -> str:
        """The request's cache key."""
        return request_key(self.model, request.system, request.messages, request.max_tokens, request.temperature)

    def is_cached(self, request: LLMRequest) -> bool:
        """Whether a reply to `request` is in the cache."""
        return self.cache is not None and self.key(request) in self.cache

    # -- sending -------------------------------------------------------------------------------
    def send(
        self, request: LLMRequest, *, usage: TokenUsage | None = None, budget: TokenBudget | None = None
    ) -> LLMReply:
        """The reply to `request` (from the cache if possible; stored in the cache otherwise)."""
        reply = self._fetch(request, usage, budget)
        if not reply.cached:
            self._store(request, reply)
        return reply

    def send_parsed(
        self,
        request: LLMRequest,
        parse: Callable[[str], T],
        *,
        usage: TokenUsage | None = None,
        budget: TokenBudget | None = None,
    ) -> T:
        """`parse(reply)`; an unparsable reply is answered once with a correction turn, then
        LLMReplyError. Only a reply that parses is cached (under the original request)."""
        reply = self._fetch(request, usage, budget)
        try:
            value = parse(reply.text)
        except ReplyFormatError as first:
            exc = first
            if reply.cached:  # stored by an older parser: ask again
                reply = self._fetch(request, usage, budget, use_cache=False)
                try:
                    value = parse(reply.text)
                    self._store(request, reply)
                    return value
                except ReplyFormatError as again:
                    exc = again
            retry = self._fetch(request.repaired(reply.text, str(exc)), usage, budget, use_cache=False)
            try:
                value = parse(retry.text)
            except ReplyFormatError as final:
                raise LLMReplyError(
                    f"unusable {request.kind} reply from {self.model} after one retry: {final}"
                ) from None
            self._store(request, retry)
            return value
        if not reply.cached:
            self._store(request, reply)
        return value

    def _store(self, request: LLMRequest, reply: LLMReply) -> None:
        if self.cache is not None:
            self.cache.put(
                self.key(request),
                self.model,
                request.kind,
                CachedReply(reply.text, reply.input_tokens, reply.output_tokens),
            )

    def _fetch(
        self, request: LLMRequest, usage: TokenUsage | None, budget: TokenBudget | None, use_cache: bool = True
    ) -> LLMReply:
        usage = usage if usage is not None else TokenUsage()
        if use_cache and self.cache is not None:
            hit = self.cache.get(self.key(request))
            if hit is not None:
                usage.add(cache_hits=1)
                return LLMReply(hit.text, hit.input_tokens, hit.output_tokens, cached=True)
        if not self.can_send:
            raise ConfigError(self.cannot_send)
        reserve = request.estimated_input_tokens() + request.max_tokens
        if budget is not None:
            budget.reserve(reserve)
        spent = 0
        try:
            reply = self._complete(request)
            spent = reply.input_tokens + reply.output_tokens
        finally:
            if budget is not None:
                budget.settle(reserve, spent)
        usage.add(
            calls=1,
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            cost_usd=estimate_cost(self.model, reply.input_tokens, reply.output_tokens),
        )
        return reply

    def close(self) -> None:
        """Release the cache file (providers release their connections too)."""
        if self.cache is not None:
            self.cache.close()
