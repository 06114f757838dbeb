"""Retrievers by name; the CLI's --retriever choices come from here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kgqa.errors import ConfigError
from kgqa.retrieval.base import BaseRetriever
from kgqa.retrieval.coe import CoERetriever
from kgqa.retrieval.difar import DifarRetriever
from kgqa.retrieval.hublink import HubLinkRetriever
from kgqa.retrieval.simgrag import SimGragRetriever

RETRIEVERS: dict[str, Callable[..., BaseRetriever]] = {
    "hublink": HubLinkRetriever,
    "difar": DifarRetriever,
    "simgrag": SimGragRetriever,
    "coe": CoERetriever,
}


def get_retriever(name: str, **deps: Any) -> BaseRetriever:
    """Build the retriever `name` from the shared dependencies (store, vstore, embedder, roles, params)."""
    try:
        factory = RETRIEVERS[name]
    except KeyError:
        raise ConfigError(f"unknown retriever '{name}'; known: {', '.join(sorted(RETRIEVERS))}") from None
    return factory(**deps)
