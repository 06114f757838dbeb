"""Retrievers by name; the CLI's --retriever choices come from here."""

from __future__ import annotations

from collections.abc import Callable
import importlib
from typing import TYPE_CHECKING, Any

from kgqa.errors import ConfigError

if TYPE_CHECKING:
    from kgqa.retrieval.base import BaseRetriever


def _lazy(module: str, cls: str) -> Callable[..., BaseRetriever]:
    """A factory that imports the retriever's module when it is first called (listing the names, as the
    CLI's --retriever choices do, imports no retriever)."""
    def factory(**deps: Any) -> BaseRetriever:
        return getattr(importlib.import_module(module), cls)(**deps)
    return factory


RETRIEVERS: dict[str, Callable[..., BaseRetriever]] = {
    "hublink": _lazy("kgqa.retrieval.hublink.retriever", "HubLinkRetriever"),
    "difar": _lazy("kgqa.retrieval.difar.retriever", "DifarRetriever"),
    "simgrag": _lazy("kgqa.retrieval.simgrag.retriever", "SimGragRetriever"),
    "coe": _lazy("kgqa.retrieval.coe.retriever", "CoERetriever"),
}


def get_retriever(name: str, **deps: Any) -> BaseRetriever:
    """Build the retriever `name` from the shared dependencies (store, vstore, embedder, roles, params)."""
    try:
        factory = RETRIEVERS[name]
    except KeyError:
        raise ConfigError(f"unknown retriever '{name}'; known: {', '.join(sorted(RETRIEVERS))}") from None
    return factory(**deps)
