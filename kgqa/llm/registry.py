"""LLM providers by name. A new provider is one module under kgqa/llm/providers/ (an `LLMClient` with
`from_settings(settings, *, require_key)`) plus one line in PROVIDERS; the query-time roles
(`LLMRoles`) and the index-time path verbaliser work with any client."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol

from kgqa.config import Settings
from kgqa.errors import ConfigError

if TYPE_CHECKING:
    from kgqa.indexing.verbalise import PathVerbaliser
    from kgqa.llm.base import AnswerRoles, LLMClient

#: "module:Class" of each provider's client; None: no LLM (the offline roles). Names only, so that
#: listing them (the CLI's --llm choices) imports no provider, SDK or model code.
PROVIDERS: dict[str, str | None] = {
    "offline": None,
    "anthropic": "kgqa.llm.providers.anthropic:AnthropicClient",
}


class ClientFactory(Protocol):
    """What a provider's client class offers the registry."""

    def from_settings(self, settings: Settings, *, require_key: bool = True) -> LLMClient:
        """A client for `settings` (`require_key=False`: one that may only read the cache)."""
        ...


def _entry(name: str) -> str | None:
    try:
        return PROVIDERS[name]
    except KeyError:
        raise ConfigError(f"unknown LLM provider '{name}'; known: {', '.join(sorted(PROVIDERS))}") from None


def needs_client(name: str) -> bool:
    """Whether provider `name` talks to an LLM (every one but offline)."""
    return _entry(name) is not None


def make_client(name: str, settings: Settings | None = None, *, require_key: bool = True) -> LLMClient:
    """A new client of provider `name` (ConfigError for offline or an unknown name)."""
    entry = _entry(name)
    if entry is None:
        raise ConfigError(f"the {name} LLM provider uses no LLM client")
    module, _, cls = entry.partition(":")
    factory: ClientFactory = getattr(importlib.import_module(module), cls)
    return factory.from_settings(settings or Settings.from_env(), require_key=require_key)


def get_roles(name: str, settings: Settings | None = None, client: LLMClient | None = None) -> AnswerRoles:
    """A fresh provider instance (its token usage starts at zero); it shares `client` when given."""
    if not needs_client(name):
        from kgqa.llm.offline import OfflineRoles

        return OfflineRoles()
    from kgqa.llm.roles import LLMRoles

    settings = settings or Settings.from_env()
    return LLMRoles.from_settings(settings, client or make_client(name, settings), name=name)


def get_verbaliser(
    name: str, settings: Settings | None = None, client: LLMClient | None = None
) -> PathVerbaliser | None:
    """The path verbaliser for `name` (None: keep the template texts)."""
    if not needs_client(name):
        return None
    from kgqa.llm.verbaliser import LLMPathVerbaliser

    settings = settings or Settings.from_env()
    return LLMPathVerbaliser.from_settings(settings, client or make_client(name, settings))
