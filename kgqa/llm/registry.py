"""LLM providers by name. A new provider is one module implementing `AnswerRoles` plus one line here
(and, for index-time path verbalisation, one line in VERBALISERS)."""

from __future__ import annotations

from collections.abc import Callable

from kgqa.config import Settings
from kgqa.errors import ConfigError
from kgqa.indexing.builder import PathVerbaliser
from kgqa.llm.anthropic_roles import AnthropicRoles
from kgqa.llm.base import AnswerRoles
from kgqa.llm.client import LLMClient
from kgqa.llm.offline import OfflineRoles
from kgqa.llm.verbaliser import LLMPathVerbaliser

#: A factory gets the settings and, when the caller shares one, an LLM client (None: make one).
PROVIDERS: dict[str, Callable[[Settings, LLMClient | None], AnswerRoles]] = {
    "offline": lambda settings, client: OfflineRoles(),
    "anthropic": AnthropicRoles.from_settings,
}

#: Index-time path verbalisers; None keeps the template texts (offline).
VERBALISERS: dict[str, Callable[[Settings, LLMClient | None], PathVerbaliser] | None] = {
    "offline": None,
    "anthropic": LLMPathVerbaliser.from_settings,
}

#: Providers that talk to an LLM (they need an `LLMClient`).
NEEDS_CLIENT = frozenset({"anthropic"})


def get_roles(name: str, settings: Settings | None = None, client: LLMClient | None = None) -> AnswerRoles:
    """A fresh provider instance (its token usage starts at zero)."""
    try:
        factory = PROVIDERS[name]
    except KeyError:
        raise ConfigError(f"unknown LLM provider '{name}'; known: {', '.join(sorted(PROVIDERS))}") from None
    return factory(settings or Settings.from_env(), client)


def get_verbaliser(name: str, settings: Settings | None = None,
                   client: LLMClient | None = None) -> PathVerbaliser | None:
    """The path verbaliser for `name` (None: keep the template texts)."""
    try:
        factory = VERBALISERS[name]
    except KeyError:
        raise ConfigError(f"unknown LLM provider '{name}'; known: {', '.join(sorted(VERBALISERS))}") from None
    return None if factory is None else factory(settings or Settings.from_env(), client)
