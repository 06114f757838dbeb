"""LLM providers by name. A new provider is one module implementing `AnswerRoles` plus one line here."""

from __future__ import annotations

from collections.abc import Callable

from kgqa.errors import ConfigError
from kgqa.llm.base import AnswerRoles
from kgqa.llm.offline import OfflineRoles

PROVIDERS: dict[str, Callable[[], AnswerRoles]] = {
    "offline": OfflineRoles,
}


def get_roles(name: str) -> AnswerRoles:
    """A fresh provider instance (its token usage starts at zero)."""
    try:
        return PROVIDERS[name]()
    except KeyError:
        raise ConfigError(f"unknown LLM provider '{name}'; known: {', '.join(sorted(PROVIDERS))}") from None
