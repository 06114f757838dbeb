"""The Anthropic provider: a thin wrapper around the official `anthropic` SDK (Messages API), with the
response cache, token accounting and budget of `CachedClient`.

Retries with exponential backoff on 429, 5xx, timeouts and connection errors are the SDK's own
(`max_retries`, honouring `retry-after`). The API key is handed to the SDK and never logged or shown.
The SDK is imported when a client is made (it takes about 1-3 s), so listing providers costs nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgqa.config import Settings
from kgqa.errors import ConfigError, LLMError
from kgqa.llm.base import LLMReply, LLMRequest
from kgqa.llm.cache import ResponseCache
from kgqa.llm.cached_client import CachedClient

if TYPE_CHECKING:
    import anthropic

DEFAULT_ENDPOINT = "https://api.anthropic.com"
NO_KEY = "ANTHROPIC_API_KEY is not set: the anthropic LLM mode needs an API key (or use --llm offline)"


def _sdk() -> Any:
    """The `anthropic` module, or ConfigError naming the package to install."""
    try:
        import anthropic
    except ImportError:
        raise ConfigError(
            "the anthropic LLM mode needs the `anthropic` package: pip install 'anthropic>=0.40' (or use --llm offline)"
        ) from None
    return anthropic


class AnthropicClient(CachedClient):
    """Sends requests through the SDK (or serves them from the cache) and accounts for them."""

    provider = "anthropic"
    cannot_send = NO_KEY

    def __init__(
        self,
        sdk: anthropic.Anthropic | None,
        model: str,
        cache: ResponseCache | None,
        *,
        timeout_s: float,
        max_retries: int,
        endpoint: str = DEFAULT_ENDPOINT,
    ) -> None:
        super().__init__(model, cache)
        self._sdk = sdk
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.endpoint = endpoint

    @classmethod
    def from_settings(cls, settings: Settings, *, require_key: bool = True) -> AnthropicClient:
        """A client for `settings.llm`; without a key only cache look-ups and estimates work."""
        llm = settings.llm
        if not llm.api_key and require_key:
            raise ConfigError(NO_KEY)
        sdk = None
        if llm.api_key:
            sdk = _sdk().Anthropic(
                api_key=llm.api_key, base_url=llm.base_url, max_retries=llm.max_retries, timeout=llm.timeout_s
            )
        cache_file = settings.llm_cache_file
        return cls(
            sdk,
            llm.model,
            ResponseCache(cache_file) if cache_file else None,
            timeout_s=llm.timeout_s,
            max_retries=llm.max_retries,
            endpoint=llm.base_url or DEFAULT_ENDPOINT,
        )

    @property
    def can_send(self) -> bool:
        """False when no API key was configured (cache look-ups and estimates still work)."""
        return self._sdk is not None

    def _complete(self, request: LLMRequest) -> LLMReply:
        message = self._create(request)
        u = message.usage
        input_tokens = u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0)
        text = "".join(getattr(block, "text", "") for block in message.content)
        return LLMReply(text, input_tokens, u.output_tokens)

    def _create(self, request: LLMRequest) -> Any:
        """One SDK call (the SDK retries); SDK errors become LLMError with a clear message."""
        extra: dict[str, Any] = (
            {"extra_body": {"temperature": request.temperature}} if request.temperature is not None else {}
        )
        assert self._sdk is not None
        sdk = _sdk()
        messages: Any = request.messages  # the SDK's MessageParam: {"role", "content"} dicts
        try:
            return self._sdk.messages.create(
                model=self.model, system=request.system, messages=messages, max_tokens=request.max_tokens, **extra
            )
        except sdk.APITimeoutError:
            raise LLMError(
                f"the Anthropic API at {self.endpoint} did not answer within {self.timeout_s:g} s "
                f"({self._attempts}); raise KGQA_LLM_TIMEOUT or try later"
            ) from None
        except sdk.APIConnectionError:
            raise LLMError(f"cannot reach the Anthropic API at {self.endpoint} ({self._attempts})") from None
        except sdk.AuthenticationError:
            raise LLMError("the Anthropic API rejected the API key (HTTP 401); check ANTHROPIC_API_KEY") from None
        except sdk.PermissionDeniedError as exc:
            raise LLMError(f"the API key may not use {self.model} (HTTP 403): {_api_message(exc)}") from None
        except sdk.RateLimitError:
            raise LLMError(
                f"rate limited by the Anthropic API (HTTP 429) after {self._attempts}; "
                "lower KGQA_LLM_CONCURRENCY or try later"
            ) from None
        except sdk.APIStatusError as exc:
            if exc.status_code >= 500:
                raise LLMError(
                    f"the Anthropic API failed (HTTP {exc.status_code}) after {self._attempts}: {_api_message(exc)}"
                ) from None
            raise LLMError(
                f"the Anthropic API rejected the {request.kind} request (HTTP {exc.status_code}): {_api_message(exc)}"
            ) from None

    @property
    def _attempts(self) -> str:
        n = self.max_retries + 1
        return f"{n} attempt{'s' if n != 1 else ''}"

    def close(self) -> None:
        """Release the HTTP connections and the cache file."""
        if self._sdk is not None:
            self._sdk.close()
        super().close()


def _api_message(exc: anthropic.APIStatusError) -> str:
    """The error message from an API error body, without echoing request data."""
    body = exc.body
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("message"):
            return f"{err.get('type', 'error')}: {err['message']}"
    return f"HTTP {exc.status_code}"
