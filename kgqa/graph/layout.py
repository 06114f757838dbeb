"""The one seam through which HubLink reads a graph: `GraphLayout`, with one implementation per way a
graph can be stored. `TripleLayout` is HubLink's own `Entity`/`Triple` tables (`kgqa load`);
`PropertyLayout` (kgqa/graph/property_layout.py) is a user's own Kùzu node and rel tables, read in
place through a mapping. `layout_of(store)` picks the one a database holds. A new layout (e.g. the
graph in Postgres) implements these methods and is added to `layout_of`; see docs/own-graph.md."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from kgqa.errors import InputError, TripleLayoutRequiredError
from kgqa.types import Entity, Triple

if TYPE_CHECKING:
    from kgqa_procedures.udfs import UdfContext

    from kgqa.graph.store import GraphStore

#: One enumerated hub path: root id, node ids, node labels, predicates, path hash, path text; and where an
#: edge on it carries properties of its own (a user's rel table's), each edge's (name, value) pairs.
PathRow = (
    tuple[str, list[str], list[str], list[str], str, str]
    | tuple[str, list[str], list[str], list[str], str, str, tuple[tuple[tuple[str, str], ...], ...]]
)
#: One predicate between two type lists: predicate, subject types, object types, object is literal, triples.
SchemaRow = tuple[str, list[str], list[str], bool, int]
#: Untyped, non-literal objects of a predicate: predicate, subject types, the object is a subject, triples.
UntypedObjectRow = tuple[str, list[str], bool, int]
#: One hop of a relation chain: from id (in the frontier), to id, to label, to is_literal, to types.
StepRow = tuple[str, str, str, bool, list[str]]
#: One fact of a hub, one or two hops out: hub id, hub label, via predicate ('' for one hop), middle id,
#: middle label, predicate, value id, value label, value is literal (kgqa/answering/catalog.py).
HubFactRow = tuple[str, str, str, str, str, str, str, str, bool]


@dataclass(frozen=True)
class GraphStats:
    """Size and shape of the stored graph."""

    entities: int
    literals: int
    triples: int
    predicates: int
    top_predicates: list[tuple[str, int]]
    top_types: list[tuple[str, int]]


class GraphLayout(Protocol):
    """Read access to one stored graph. Ids are strings; every method reads in bulk."""

    name: str

    def entities_by_ids(self, ids: list[str]) -> dict[str, Entity]:
        """The entities among `ids` (unknown ids are left out), keyed by id."""
        ...

    def out_edges(self, ids: list[str]) -> list[Triple]:
        """Triples whose subject is one of `ids`."""
        ...

    def in_edges(self, ids: list[str]) -> list[Triple]:
        """Triples whose object is one of `ids`."""
        ...

    def entities_by_label(self, text: str, limit: int) -> list[tuple[Entity, bool]]:
        """Non-literal entities whose label contains `text` (case-insensitive), with whether it is
        equal; exact matches first, then shorter labels."""
        ...

    def hub_root_candidates(self, ctx: UdfContext) -> list[tuple[str, str, int]]:
        """(id, label, out-degree) of every entity meeting the hub-root criteria of `ctx`."""
        ...

    def hub_paths(
        self, roots: list[str], boundary: bool, max_path_length: int, ctx: UdfContext | None
    ) -> Iterator[PathRow]:
        """All maximal acyclic outbound paths of `roots` (thesis Alg. 5), not passing through another
        hub root (`ctx.root_ids`); with `boundary` a path may end at one."""
        ...

    def is_empty(self) -> bool:
        """True when the graph has no triple."""
        ...

    def predicates(self) -> list[str]:
        """The distinct predicate labels of the graph."""
        ...

    def stats(self, top: int) -> GraphStats:
        """Counts of entities, literals, triples, predicates; the most frequent predicates and types."""
        ...

    def predicate_schema(self) -> list[SchemaRow]:
        """Which predicate connects which subject and object types, with triple counts (one aggregate)."""
        ...

    def untyped_objects(self) -> list[UntypedObjectRow]:
        """The schema's rows of untyped, non-literal objects, split by whether such an object is itself
        the subject of some triple (one aggregate; none where every entity has a type)."""
        ...

    def subjects_among(self, ids: list[str]) -> set[str]:
        """The entities among `ids` that are the subject of some triple."""
        ...

    def object_predicates(self, ids: list[str]) -> dict[str, set[str]]:
        """The distinct predicates each entity of `ids` is the object of (those of none left out)."""
        ...

    def step(self, frontier: list[Entity], predicate: str, direction: int, cap: int) -> list[StepRow]:
        """One hop over `predicate` from every entity of `frontier` at once: forward (`direction` > 0,
        the frontier as subjects) or backward (the frontier as objects); at most `cap` rows."""
        ...

    def labels_in_text(self, text: str, min_len: int, limit: int) -> list[Entity]:
        """Entities whose label (at least `min_len` long) occurs in the lower-cased `text`, longest first."""
        ...

    def hub_facts(self, hub_type: str, limit: int) -> list[HubFactRow] | None:
        """Every fact of the entities of `hub_type`, one hop out and two hops out through an entity that
        is neither a literal nor of the hub type (a contribution, an author); `limit` rows or more
        (or None, where the layout can tell without reading them) when the graph holds that many."""
        ...

    def untyped_facts(self, limit: int) -> list[HubFactRow] | None:
        """`hub_facts` of every subject without a type (an index built without hub types; kgqa/answering/
        untyped.py), two hops out through any entity that is not a literal; [] where every entity has one."""
        ...


def by_first(rows: Iterable[Sequence[Any]]) -> dict[str, set[str]]:
    """Rows of (key, value) as key -> the set of its values."""
    out: dict[str, set[str]] = {}
    for key, value in rows:
        out.setdefault(key, set()).add(value)
    return out


#: Ids a set-based read passes as `IN $ids`; more are unwound and joined (`chains/step_*_many`).
IN_LIST_MAX = 100
#: Seconds of one `graph/entity_by_id` lookup (0.2-0.3 ms on the 10^5 scale graph): `GraphStore.by_key`.
ENTITY_LOOKUP_S = 0.3e-3
#: Seconds of one `graph/out_edges_one` / `in_edges_one` read (1.8-4.3 ms on the 10^6 scale graph).
EDGE_LOOKUP_S = 3e-3
#: Seconds of one `chains/step_*_one` hop from one entity (a key read, its edges, their far ends' rows).
STEP_LOOKUP_S = 5e-3


class TripleLayout:
    """HubLink's own layout: node table `Entity(id, label, types, is_literal)`, rel table
    `Triple(predicate, predicate_id)`. Every method runs the named queries it always ran."""

    name = "triples"
    triple_tables = True  # HubLink's own entity and triple tables: the exact-answer reads run on them

    def __init__(self, store: GraphStore) -> None:
        self.store = store

    def entities_by_ids(self, ids: list[str]) -> dict[str, Entity]:
        if not ids:
            return {}
        if self.store.by_key(len(ids), ENTITY_LOOKUP_S, "Entity"):
            return {
                r[0]: entity_row(r) for r in self.store.run_each("graph/entity_by_id", "id", list(dict.fromkeys(ids)))
            }
        return {r[0]: entity_row(r) for r in self.store.run("graph/entities_by_ids", {"ids": ids})}

    def out_edges(self, ids: list[str]) -> list[Triple]:
        return self._edges("graph/out_edges", ids)

    def in_edges(self, ids: list[str]) -> list[Triple]:
        return self._edges("graph/in_edges", ids)

    def _edges(self, name: str, ids: list[str]) -> list[Triple]:
        """The triples of query `name` for `ids`: one list query, or one key read per id (`name_one`)
        where that is cheaper (`GraphStore.by_key`)."""
        if not ids:
            return []
        if self.store.by_key(len(ids), EDGE_LOOKUP_S, "Entity"):
            return [triple_row(r) for r in self.store.run_each(f"{name}_one", "id", list(dict.fromkeys(ids)))]
        return [triple_row(r) for r in self.store.run(name, {"ids": ids})]

    def entities_by_label(self, text: str, limit: int) -> list[tuple[Entity, bool]]:
        rows = self.store.run("graph/entities_by_label", {"label": text, "limit": limit})
        return [(entity_row(r), bool(r[4])) for r in rows]

    def hub_root_candidates(self, ctx: UdfContext) -> list[tuple[str, str, int]]:
        from kgqa_procedures.udfs import register_udfs

        register_udfs(self.store, ctx)
        return [(r[0], r[1], r[2]) for r in self.store.run("indexing/hub_root_candidates")]

    def hub_paths(
        self, roots: list[str], boundary: bool, max_path_length: int, ctx: UdfContext | None
    ) -> Iterator[PathRow]:
        # the UDFs (kgqa_is_hub_root with ctx's roots) are registered by whoever found the roots
        rows = self.store.run_iter(
            "indexing/enumerate_hub_paths",
            {"roots": roots, "boundary": boundary},
            max_path_length=max_path_length,
        )
        for r in rows:
            yield r[0], r[1], r[2], r[3], r[4], r[5]

    def is_empty(self) -> bool:
        return not self.store.scalar("graph/count_triples")

    def predicates(self) -> list[str]:
        return [r[0] for r in self.store.run("retrieval/predicates") if r[0]]

    def stats(self, top: int) -> GraphStats:
        entities, literals = self.store.run("graph/count_entities")[0]
        triples, predicates = self.store.run("graph/count_triples")[0]
        preds = [(r[0], r[1]) for r in self.store.run("graph/top_predicates", {"limit": top})]
        types = [(r[0], r[1]) for r in self.store.run("graph/top_types", {"limit": top})]
        return GraphStats(entities, literals, triples, predicates, preds, types)

    def predicate_schema(self) -> list[SchemaRow]:
        return [(r[0], r[1] or [], r[2] or [], bool(r[3]), int(r[4])) for r in self.store.run("chains/schema")]

    def untyped_objects(self) -> list[UntypedObjectRow]:
        return [(r[0], r[1] or [], bool(r[2]), int(r[3])) for r in self.store.run("chains/untyped_objects")]

    def subjects_among(self, ids: list[str]) -> set[str]:
        if not ids:
            return set()
        if self.store.by_key(len(ids), ENTITY_LOOKUP_S, "Entity"):
            return {r[0] for r in self.store.run_each("chains/subjects_among_one", "id", list(dict.fromkeys(ids)))}
        return {r[0] for r in self.store.run("chains/subjects_among", {"ids": ids})}

    def object_predicates(self, ids: list[str]) -> dict[str, set[str]]:
        if not ids:
            return {}
        if self.store.by_key(len(ids), EDGE_LOOKUP_S, "Entity"):
            rows = self.store.run_each("chains/object_predicates_one", "id", list(dict.fromkeys(ids)))
        else:
            rows = self.store.run("chains/object_predicates", {"ids": ids})
        return by_first(rows)

    def step(self, frontier: list[Entity], predicate: str, direction: int, cap: int) -> list[StepRow]:
        query = "chains/step_out" if direction > 0 else "chains/step_in"
        ids = [e.id for e in frontier]
        if self.store.by_key(len(ids), STEP_LOOKUP_S, "Triple"):  # a key read each: cheaper than a scan
            rows = self.store.run_each(
                query + "_one", "id", list(dict.fromkeys(ids)), {"predicate": predicate, "cap": cap}
            )
            return [(r[0], r[1], r[2] or "", bool(r[3]), r[4] or []) for r in rows[:cap]]
        if len(frontier) > IN_LIST_MAX:  # Kùzu checks `IN $ids` against the whole list per row
            query += "_many"
        rows = self.store.run(query, {"ids": ids, "predicate": predicate, "cap": cap})
        return [(r[0], r[1], r[2] or "", bool(r[3]), r[4] or []) for r in rows]

    def labels_in_text(self, text: str, min_len: int, limit: int) -> list[Entity]:
        rows = self.store.run("chains/labels_in_text", {"text": text, "min_len": min_len, "limit": limit})
        return [entity_row(r) for r in rows]

    def entity_labels(self, min_len: int) -> list[Entity]:
        """Every entity with a label at least `min_len` long, read column by column."""
        columns = self.store.run_columns("chains/entity_labels", {"min_len": min_len})
        return [entity_row(r) for r in zip(*columns)]

    def hub_facts(self, hub_type: str, limit: int) -> list[HubFactRow] | None:
        if int(self.store.run("answering/hub_fact_count", {"hub_type": hub_type})[0][0]) >= limit:
            return None  # past the limit already one hop out: not read
        # column by column through Arrow: hundreds of thousands of rows (row by row took seconds at 10^6)
        columns = self.store.run_columns("answering/hub_facts", {"hub_type": hub_type, "limit": limit})
        return hub_fact_rows(list(zip(*columns)))

    def untyped_facts(self, limit: int) -> list[HubFactRow] | None:
        if int(self.store.run("answering/untyped_fact_count")[0][0]) >= limit:
            return None
        return hub_fact_rows(list(zip(*self.store.run_columns("answering/untyped_facts", {"limit": limit}))))


def hub_fact_rows(rows: Sequence[Sequence[Any]]) -> list[HubFactRow]:
    """The rows of the `answering/hub_facts` read (Cypher, or its SQL twin) as `HubFactRow`s."""
    return [(r[0], r[1], r[2], r[3], r[4] or "", r[5], r[6], r[7] or "", bool(r[8])) for r in rows]


def entity_row(row: Sequence[Any]) -> Entity:
    """An entity from a row (id, label, types, is_literal)."""
    return Entity(row[0], row[1] or "", tuple(row[2] or ()), bool(row[3]))


def triple_row(row: Sequence[Any]) -> Triple:
    """A triple from a row (sid, slabel, s_is_literal, predicate, oid, olabel, o_is_literal)."""
    return Triple(
        Entity(row[0], row[1] or "", (), bool(row[2])), row[3], Entity(row[4], row[5] or "", (), bool(row[6]))
    )


def layout_of(store: GraphStore) -> GraphLayout:
    """The layout of the graph in `store` (cached on the store): the triple layout when it has
    HubLink's `Entity` table, else the user's own tables through their mapping (the one stored with
    the index by `index build --mapping`, else inferred from the catalog)."""
    cached = getattr(store, "_layout", None)
    if cached is not None and getattr(cached, "store", None) is store:
        return cached
    if cached is not None and hasattr(cached, "on"):  # a sibling connection: same mapping, own queries
        layout_on: GraphLayout = cached.on(store)
        store._layout = layout_on  # type: ignore[attr-defined]
        return layout_on
    layout: GraphLayout
    if store.has_table("Entity"):
        layout = TripleLayout(store)
    else:
        from kgqa.graph.property_layout import stored_layout

        layout = stored_layout(store)
    store._layout = layout  # type: ignore[attr-defined]
    return layout


def in_triple_tables(store: GraphStore) -> bool:
    """Whether the graph is kept in HubLink's own entity and triple tables (in Kùzu, or in Postgres): the
    exact answers' aggregates then run as those tables' own queries (`Catalog.in_cypher`). Whether a
    graph gets exact answers at all is `kgqa.answering.catalog.exact_answers_available`."""
    return bool(getattr(layout_of(store), "triple_tables", False))


def require_triples(store: GraphStore, what: str) -> None:
    """InputError unless the graph is HubLink's own triple layout: HubLink never writes to a user's
    own node and rel tables (`what`: the refused action, for the message)."""
    layout = layout_of(store)
    views = getattr(store, "views_schema", None)  # a user's own views in Postgres (docs/postgres-graph.md)
    if layout.name == "postgres" and views:
        raise InputError(
            f"{what}: the graph is read from your own views in schema '{views}', which HubLink never writes; "
            "change your own tables with SQL and run `kgqa index update` (docs/postgres-graph.md#your-own-tables)"
        )
    if layout.name == "postgres":
        raise InputError(
            f"{what}: the graph is in Postgres (--graph postgres); change it with SQL (INSERT or DELETE on "
            "kgqa_<index>.entities and kgqa_<index>.triples): `kgqa serve` refreshes the index (docs/postgres-graph.md)"
        )
    if not isinstance(layout, TripleLayout):
        raise InputError(
            f"{what}: this database holds your own node and rel tables, which HubLink never writes; change them "
            "with Cypher and run `kgqa index update` (docs/own-graph.md)"
        )


#: What `index update --dirty` says on a graph whose writes leave no dirty marks (it checks every hub).
UNMARKED_NOTE = (
    "--dirty: your own tables carry no dirty marks (HubLink never writes them), so every hub was checked "
    "by content hash instead"
)


def tracks_writes(store: GraphStore) -> bool:
    """Whether the graph's changes leave dirty marks (`index update --dirty`): only HubLink's own
    writes do, on its triple layout; a user's own Cypher writes to their tables leave none."""
    return isinstance(layout_of(store), TripleLayout)


def require_triple_layout(store: GraphStore, retriever: str) -> None:
    """TripleLayoutRequiredError unless the graph is HubLink's triple layout: the label index of the
    seed-paper retrievers (difar, simgrag, coe) links its texts to the `Entity` table, and is not
    routed through the layout (docs/own-graph.md)."""
    if not isinstance(layout_of(store), TripleLayout):
        raise TripleLayoutRequiredError(
            f"the {retriever} retriever needs HubLink's triple layout (a graph loaded with `kgqa load`): its label "
            "index links to HubLink's Entity table; on your own property graph use the hublink retriever (the "
            "default) or load a copy of the graph as triples"
        )


def set_layout(store: GraphStore, layout: GraphLayout) -> None:
    """Use `layout` for `store` from now on (index build with a mapping file)."""
    store._layout = layout  # type: ignore[attr-defined]


def unique(ids: Iterable[str]) -> list[str]:
    """`ids` without repeats, in order."""
    return list(dict.fromkeys(ids))
