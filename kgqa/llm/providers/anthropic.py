"""A thin wrapper around the official `anthropic` SDK: response cache, token accounting, budget,
typed errors, and structured replies with one corrective retry.

Retries with exponential backoff on 429, 5xx, timeouts and connection errors are the SDK's own
(`max_retries`, honouring `retry-after`). The API key is handed to the SDK and never logged or shown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from kgqa.config import Settings
from kgqa.errors import ConfigError, LLMError, LLMReplyError
from kgqa.llm.base import TokenUsage
from kgqa.llm.budget import TokenBudget
from kgqa.llm.cache import CachedReply, ResponseCache, request_key
from kgqa.llm.cost import estimate_cost, estimate_tokens
from kgqa.llm.jsonreply import ReplyFormatError
from kgqa.llm.prompts import REPAIR

if TYPE_CHECKING:  # the SDK takes about 1-3 s to import: loaded only when a request is sent
    import anthropic

T = TypeVar("T")
DEFAULT_ENDPOINT = "https://api.anthropic.com"


@dataclass(frozen=True)
class LLMRequest:
    """One Messages API request: a system prompt and alternating turns, ending with the user's."""

    kind: str                                   # which prompt (for the cache and for reports)
    system: str
    turns: tuple[tuple[str, str], ...]          # (role, text)
    max_tokens: int
    temperature: float | None = None            # None: the model's default (not sent)

    @classmethod
    def single(cls, kind: str, system: str, user: str, max_tokens: int) -> LLMRequest:
        """A request with one user turn."""
        return cls(kind, system, (("user", user),), max_tokens)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The `messages` parameter."""
        return [{"role": role, "content": text} for role, text in self.turns]

    def repaired(self, bad_reply: str, problem: str) -> LLMRequest:
        """The follow-up request after an unusable reply: the reply, then a correction."""
        shown = (bad_reply.strip() or "(empty reply)")[:2000]
        fix = REPAIR.render(problem=problem)
        return LLMRequest(self.kind, self.system, self.turns + (("assistant", shown), ("user", fix)),
                          self.max_tokens, self.temperature)

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


class LLMClient:
    """Sends requests through the SDK (or serves them from the cache) and accounts for them."""

    def __init__(self, sdk: anthropic.Anthropic | None, model: str, cache: ResponseCache | None, *,
                 timeout_s: float, max_retries: int, endpoint: str = DEFAULT_ENDPOINT) -> None:
        self._sdk = sdk
        self.model = model
        self.cache = cache
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.endpoint = endpoint

    @classmethod
    def from_settings(cls, settings: Settings, *, require_key: bool = True) -> LLMClient:
        """A client for `settings.llm`; without a key only cache look-ups and estimates work."""
        llm = settings.llm
        if not llm.api_key and require_key:
            raise ConfigError("ANTHROPIC_API_KEY is not set: the anthropic LLM mode needs an API key "
                              "(or use --llm offline)")
        sdk = None
        if llm.api_key:
            import anthropic

            sdk = anthropic.Anthropic(api_key=llm.api_key, base_url=llm.base_url, max_retries=llm.max_retries,
                                      timeout=llm.timeout_s)
        cache_file = settings.llm_cache_file
        return cls(sdk, llm.model, ResponseCache(cache_file) if cache_file else None, timeout_s=llm.timeout_s,
                   max_retries=llm.max_retries, endpoint=llm.base_url or DEFAULT_ENDPOINT)

    @property
    def can_send(self) -> bool:
        """False when no API key was configured (cache look-ups and estimates still work)."""
        return self._sdk is not None

    def key(self, request: LLMRequest) -> str:
        """The request's cache key."""
        return request_key(self.model, request.system, request.messages, request.max_tokens, request.temperature)

    def is_cached(self, request: LLMRequest) -> bool:
        """Whether a reply to `request` is in the cache."""
        return self.cache is not None and self.key(request) in self.cache

    # -- sending -------------------------------------------------------------------------------
    def send(self, request: LLMRequest, *, usage: TokenUsage | None = None,
             budget: TokenBudget | None = None) -> LLMReply:
        """The reply to `request` (from the cache if possible; stored in the cache otherwise)."""
        reply = self._fetch(request, usage, budget)
        if not reply.cached:
            self._store(request, reply)
        return reply

    def send_parsed(self, request: LLMRequest, parse: Callable[[str], T], *, usage: TokenUsage | None = None,
                    budget: TokenBudget | None = None) -> T:
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
                raise LLMReplyError(f"unusable {request.kind} reply from {self.model} after one retry: "
                                    f"{final}") from None
            self._store(request, retry)
            return value
        if not reply.cached:
            self._store(request, reply)
        return value

    def _store(self, request: LLMRequest, reply: LLMReply) -> None:
        if self.cache is not None:
            self.cache.put(self.key(request), self.model, request.kind,
                           CachedReply(reply.text, reply.input_tokens, reply.output_tokens))

    def _fetch(self, request: LLMRequest, usage: TokenUsage | None, budget: TokenBudget | None,
               use_cache: bool = True) -> LLMReply:
        usage = usage if usage is not None else TokenUsage()
        if use_cache and self.cache is not None:
            hit = self.cache.get(self.key(request))
            if hit is not None:
                usage.add(cache_hits=1)
                return LLMReply(hit.text, hit.input_tokens, hit.output_tokens, cached=True)
        if self._sdk is None:
            raise ConfigError("ANTHROPIC_API_KEY is not set: the anthropic LLM mode needs an API key "
                              "(or use --llm offline)")
        reserve = request.estimated_input_tokens() + request.max_tokens
        if budget is not None:
            budget.reserve(reserve)
        spent = 0
        try:
            message = self._create(request)
            u = message.usage
            input_tokens = (u.input_tokens + (u.cache_creation_input_tokens or 0)
                            + (u.cache_read_input_tokens or 0))
            output_tokens = u.output_tokens
            spent = input_tokens + output_tokens
        finally:
            if budget is not None:
                budget.settle(reserve, spent)
        text = "".join(getattr(block, "text", "") for block in message.content)
        usage.add(calls=1, input_tokens=input_tokens, output_tokens=output_tokens,
                  cost_usd=estimate_cost(self.model, input_tokens, output_tokens))
        return LLMReply(text, input_tokens, output_tokens)

    def _create(self, request: LLMRequest) -> Any:
        """One SDK call (the SDK retries); SDK errors become LLMError with a clear message."""
        extra = {"extra_body": {"temperature": request.temperature}} if request.temperature is not None else {}
        assert self._sdk is not None
        import anthropic

        try:
            return self._sdk.messages.create(model=self.model, system=request.system, messages=request.messages,
                                             max_tokens=request.max_tokens, **extra)
        except anthropic.APITimeoutError:
            raise LLMError(f"the Anthropic API at {self.endpoint} did not answer within {self.timeout_s:g} s "
                           f"({self._attempts}); raise KGQA_LLM_TIMEOUT or try later") from None
        except anthropic.APIConnectionError:
            raise LLMError(f"cannot reach the Anthropic API at {self.endpoint} ({self._attempts})") from None
        except anthropic.AuthenticationError:
            raise LLMError("the Anthropic API rejected the API key (HTTP 401); check ANTHROPIC_API_KEY") from None
        except anthropic.PermissionDeniedError as exc:
            raise LLMError(f"the API key may not use {self.model} (HTTP 403): {_api_message(exc)}") from None
        except anthropic.RateLimitError:
            raise LLMError(f"rate limited by the Anthropic API (HTTP 429) after {self._attempts}; "
                           "lower KGQA_LLM_CONCURRENCY or try later") from None
        except anthropic.APIStatusError as exc:
            if exc.status_code >= 500:
                raise LLMError(f"the Anthropic API failed (HTTP {exc.status_code}) after {self._attempts}: "
                               f"{_api_message(exc)}") from None
            raise LLMError(f"the Anthropic API rejected the {request.kind} request (HTTP {exc.status_code}): "
                           f"{_api_message(exc)}") from None

    @property
    def _attempts(self) -> str:
        n = self.max_retries + 1
        return f"{n} attempt{'s' if n != 1 else ''}"

    def close(self) -> None:
        """Release the HTTP connections and the cache file."""
        if self._sdk is not None:
            self._sdk.close()
        if self.cache is not None:
            self.cache.close()


def _api_message(exc: anthropic.APIStatusError) -> str:
    """The error message from an API error body, without echoing request data."""
    body = exc.body
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("message"):
            return f"{err.get('type', 'error')}: {err['message']}"
    return f"HTTP {exc.status_code}"
