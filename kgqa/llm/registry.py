"""LLM providers by name. A new provider is one module implementing `AnswerRoles` plus one line here
(and, for index-time path verbalisation, one line in VERBALISERS)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kgqa.config import Settings
from kgqa.errors import ConfigError

if TYPE_CHECKING:
    from kgqa.indexing.verbalise import PathVerbaliser
    from kgqa.llm.base import AnswerRoles
    from kgqa.llm.client import LLMClient

# Each factory imports its provider when called, so that listing the names (the CLI's --llm choices)
# imports no provider, SDK or model code.


def _offline(settings: Settings, client: LLMClient | None) -> AnswerRoles:
    from kgqa.llm.offline import OfflineRoles

    return OfflineRoles()


def _anthropic(settings: Settings, client: LLMClient | None) -> AnswerRoles:
    from kgqa.llm.anthropic_roles import AnthropicRoles

    return AnthropicRoles.from_settings(settings, client)


def _anthropic_verbaliser(settings: Settings, client: LLMClient | None) -> PathVerbaliser:
    from kgqa.llm.verbaliser import LLMPathVerbaliser

    return LLMPathVerbaliser.from_settings(settings, client)


#: A factory gets the settings and, when the caller shares one, an LLM client (None: make one).
PROVIDERS: dict[str, Callable[[Settings, LLMClient | None], AnswerRoles]] = {
    "offline": _offline,
    "anthropic": _anthropic,
}

#: Index-time path verbalisers; None keeps the template texts (offline).
VERBALISERS: dict[str, Callable[[Settings, LLMClient | None], PathVerbaliser] | None] = {
    "offline": None,
    "anthropic": _anthropic_verbaliser,
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
