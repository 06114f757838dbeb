"""Read access to the graph: statistics, entities by id or label, and bulk neighbourhoods."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pyarrow as pa

from kgqa.errors import AmbiguousEntityError, EntityNotFoundError
from kgqa.graph.store import GraphStore
from kgqa.types import Entity, Triple


@dataclass(frozen=True)
class GraphStats:
    """Size and shape of the stored graph."""

    entities: int
    literals: int
    triples: int
    predicates: int
    top_predicates: list[tuple[str, int]]
    top_types: list[tuple[str, int]]


def graph_stats(store: GraphStore, top: int = 10) -> GraphStats:
    """Counts of entities, literals, triples, predicates, and the most frequent predicates and types."""
    entities, literals = store.run("graph/count_entities")[0]
    triples, predicates = store.run("graph/count_triples")[0]
    preds = [(r[0], r[1]) for r in store.run("graph/top_predicates", {"limit": top})]
    types = [(r[0], r[1]) for r in store.run("graph/top_types", {"limit": top})]
    return GraphStats(entities, literals, triples, predicates, preds, types)


def _entity(row: list) -> Entity:
    return Entity(row[0], row[1] or "", tuple(row[2] or ()), bool(row[3]))


def entities_by_ids(store: GraphStore, ids: Iterable[str]) -> dict[str, Entity]:
    """The stored entities among `ids`, keyed by id."""
    ids = list(dict.fromkeys(ids))
    if not ids:
        return {}
    return {r[0]: _entity(r) for r in store.run("graph/entities_by_ids", {"ids": ids})}


def resolve_entity(store: GraphStore, ref: str) -> Entity:
    """An entity given by id, or else by its label (exact, case-insensitive; then unique substring)."""
    found = entities_by_ids(store, [ref])
    if ref in found:
        return found[ref]
    rows = store.run("graph/entities_by_label", {"label": ref, "limit": 10})
    exact = [r for r in rows if r[4]]
    pool = exact or rows
    if len(pool) == 1:
        return _entity(pool[0])
    if not pool:
        raise EntityNotFoundError(f"no entity with id or label '{ref}'")
    shown = "; ".join(f"{r[0]} ({r[1]})" for r in pool[:5])
    raise AmbiguousEntityError(f"'{ref}' matches {len(pool)} entities, e.g. {shown}; give an id")


def _triple(row: list) -> Triple:
    return Triple(
        Entity(row[0], row[1] or "", (), bool(row[2])), row[3], Entity(row[4], row[5] or "", (), bool(row[6]))
    )


def out_edges(store: GraphStore, ids: Iterable[str]) -> list[Triple]:
    """Triples whose subject is one of `ids` (one query for all)."""
    ids = list(ids)
    return [_triple(r) for r in store.run("graph/out_edges", {"ids": ids})] if ids else []


def in_edges(store: GraphStore, ids: Iterable[str]) -> list[Triple]:
    """Triples whose object is one of `ids` (one query for all)."""
    ids = list(ids)
    return [_triple(r) for r in store.run("graph/in_edges", {"ids": ids})] if ids else []


def stored_triples(store: GraphStore, keys: list[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
    """Which of these (subject id, predicate, object id) triples are in the graph (one bulk lookup)."""
    if not keys:
        return set()
    rows = store.run_with_table(
        "graph/stored_triples",
        pa.table({"sid": [k[0] for k in keys], "pred": [k[1] for k in keys], "oid": [k[2] for k in keys]}),
    )
    return {(r[0], r[1], r[2]) for r in rows}
