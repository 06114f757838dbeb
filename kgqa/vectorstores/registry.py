"""HubVector stores by name ("kuzu", "pgvector"); `--store` choices and `Settings.store` come from here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kgqa.config import Settings
from kgqa.errors import ConfigError

if TYPE_CHECKING:  # the stores are imported when opened, so that listing their names imports none
    from kgqa.graph.store import GraphStore
    from kgqa.vectorstores.base import HubVectorStore


def _kuzu(graph: GraphStore, settings: Settings, pg_dsn: str | None) -> HubVectorStore:
    from kgqa.vectorstores.kuzu_store import KuzuHubVectorStore

    return KuzuHubVectorStore(graph, ann=settings.ann, half_raw=settings.half_vectors)


def _pgvector(graph: GraphStore, settings: Settings, pg_dsn: str | None) -> HubVectorStore:
    from kgqa.postgres.server import resolve_dsn
    from kgqa.vectorstores.pgvector_store import PgVectorHubStore

    return PgVectorHubStore(
        pg_dsn or resolve_dsn(settings),
        index=settings.index_name,
        db_path=str(settings.db_path),
        tracer=graph.tracer,
        ann=settings.ann,
        half=settings.half_vectors,
        build_memory=settings.memory.bytes,
        room=graph.give_room,
    )


STORES: dict[str, Callable[[GraphStore, Settings, str | None], HubVectorStore]] = {
    "kuzu": _kuzu,
    "pgvector": _pgvector,
}


def open_vstore(name: str, graph: GraphStore, settings: Settings, *, pg_dsn: str | None = None) -> HubVectorStore:
    """The HubVector store `name` for this workspace (Postgres connects on first use)."""
    try:
        factory = STORES[name]
    except KeyError:
        raise ConfigError(f"unknown store '{name}'; known: {', '.join(sorted(STORES))}") from None
    return factory(graph, settings, pg_dsn)
