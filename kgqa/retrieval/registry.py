"""Retrievers by name, each with the index parts it reads; the CLI's --retriever choices come from here."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kgqa.errors import ConfigError
from kgqa.indexing.parts import HUB_INDEX, label_parts

if TYPE_CHECKING:
    from kgqa.retrieval.base import BaseRetriever


@dataclass(frozen=True)
class RetrieverEntry:
    """A retriever's class, imported when the retriever is first built (listing the names, as the CLI's
    --retriever choices do, imports no retriever), and the index parts it reads (kgqa/indexing/parts.py)."""

    module: str
    cls: str
    index_parts: tuple[str, ...]

    def __call__(self, **deps: Any) -> BaseRetriever:
        """Build the retriever from the shared dependencies."""
        return getattr(importlib.import_module(self.module), self.cls)(**deps)


RETRIEVERS: dict[str, RetrieverEntry] = {
    "hublink": RetrieverEntry("kgqa.retrieval.hublink.retriever", "HubLinkRetriever", (HUB_INDEX,)),
    "difar": RetrieverEntry("kgqa.retrieval.difar.retriever", "DifarRetriever", ("triples",)),
    "simgrag": RetrieverEntry("kgqa.retrieval.simgrag.retriever", "SimGragRetriever", ("labels", "predicates")),
    "coe": RetrieverEntry("kgqa.retrieval.coe.retriever", "CoERetriever", ("labels", "predicates")),
}


def retriever_entry(name: str) -> RetrieverEntry:
    """The registry entry of `name`; ConfigError for an unknown retriever."""
    try:
        return RETRIEVERS[name]
    except KeyError:
        raise ConfigError(f"unknown retriever '{name}'; known: {', '.join(sorted(RETRIEVERS))}") from None


def index_parts(name: str) -> tuple[str, ...]:
    """The index parts the retriever `name` reads."""
    return retriever_entry(name).index_parts


def label_index_parts(name: str) -> tuple[str, ...]:
    """The label-index parts the retriever `name` reads; ConfigError for a retriever without any."""
    entry = RETRIEVERS.get(name)
    parts = label_parts(entry.index_parts) if entry else ()
    if not parts:
        known = sorted(n for n, e in RETRIEVERS.items() if label_parts(e.index_parts))
        raise ConfigError(f"retriever '{name}' has no label index; known: {', '.join(known)}")
    return parts


def get_retriever(name: str, **deps: Any) -> BaseRetriever:
    """Build the retriever `name` from the shared dependencies (store, vstore, embedder, roles, params,
    facts)."""
    return retriever_entry(name)(**deps)
