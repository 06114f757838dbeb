"""Read access to the graph: statistics, entities by id or label, and bulk neighbourhoods, through
the graph's layout (kgqa/graph/layout.py)."""

from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa

from kgqa.errors import AmbiguousEntityError, EntityNotFoundError
from kgqa.graph.layout import GraphStats, layout_of
from kgqa.graph.store import GraphStore
from kgqa.types import Entity, Triple


def graph_stats(store: GraphStore, top: int = 10) -> GraphStats:
    """Counts of entities, literals, triples, predicates, and the most frequent predicates and types."""
    return layout_of(store).stats(top)


def entities_by_ids(store: GraphStore, ids: Iterable[str]) -> dict[str, Entity]:
    """The stored entities among `ids`, keyed by id."""
    ids = list(dict.fromkeys(ids))
    return layout_of(store).entities_by_ids(ids) if ids else {}


def resolve_entity(store: GraphStore, ref: str) -> Entity:
    """An entity given by id, or else by its label (exact, case-insensitive; then unique substring)."""
    found = entities_by_ids(store, [ref])
    if ref in found:
        return found[ref]
    rows = layout_of(store).entities_by_label(ref, 10)
    exact = [e for e, is_exact in rows if is_exact]
    pool = exact or [e for e, _ in rows]
    if len(pool) == 1:
        return pool[0]
    if not pool:
        raise EntityNotFoundError(f"no entity with id or label '{ref}'")
    shown = "; ".join(f"{e.id} ({e.label})" for e in pool[:5])
    raise AmbiguousEntityError(f"'{ref}' matches {len(pool)} entities, e.g. {shown}; give an id")


def out_edges(store: GraphStore, ids: Iterable[str]) -> list[Triple]:
    """Triples whose subject is one of `ids` (one query for all)."""
    ids = list(ids)
    return layout_of(store).out_edges(ids) if ids else []


def in_edges(store: GraphStore, ids: Iterable[str]) -> list[Triple]:
    """Triples whose object is one of `ids` (one query for all)."""
    ids = list(ids)
    return layout_of(store).in_edges(ids) if ids else []


def stored_triples(store: GraphStore, keys: list[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
    """Which of these (subject id, predicate, object id) triples are in the graph (one bulk lookup)."""
    if not keys:
        return set()
    rows = store.run_with_table(
        "graph/stored_triples",
        pa.table({"sid": [k[0] for k in keys], "pred": [k[1] for k in keys], "oid": [k[2] for k in keys]}),
    )
    return {(r[0], r[1], r[2]) for r in rows}
