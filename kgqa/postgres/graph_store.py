"""The graph in Postgres (`--graph postgres`): `PgGraph` stands where a Kùzu `GraphStore` stands (the
workspace's `store`), with no Kùzu file, and `PgLayout` reads the index schema's `entities` and
`triples` tables through the `GraphLayout` protocol (kgqa/graph/layout.py). Every query is a file in
sql/postgres/queries/graph_*.sql with bound parameters; hub paths are enumerated with one query per hop
level over the whole frontier (kgqa.graph.property_layout.paths_by_level) or one recursive CTE
(kgqa/postgres/graph_paths.py). See docs/postgres-graph.md."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from kgqa.config import Settings
from kgqa.errors import StoreError
from kgqa.graph.layout import (
    GraphStats,
    HubFactRow,
    PathRow,
    SchemaRow,
    StepRow,
    UntypedObjectRow,
    by_first,
    entity_row,
    hub_fact_rows,
    triple_row,
)
from kgqa.graph.property_layout import paths_by_level
from kgqa.graph.store import GraphStore, Tracer
from kgqa.memory import MemoryCeiling
from kgqa.postgres.database import PgDatabase
from kgqa.postgres.graph_paths import PATH_FORM, paths_by_cte
from kgqa.postgres.graph_views import check_contract, refuse_writes
from kgqa.postgres.indexes import schema_of
from kgqa.types import Entity, Triple

if TYPE_CHECKING:
    from kgqa_procedures.udfs import UdfContext

#: The Cypher reads of exact answers (kgqa/answering/) and the SQL query answering each here.
ANSWERING_QUERIES = {
    "answering/hub_facts": "graph_hub_facts",
    "answering/untyped_facts": "graph_untyped_facts",
    "answering/matching_hubs": "graph_matching_hubs",
    "answering/group_hubs": "graph_group_hubs",
}
#: The Cypher reads of the graph explorer (kgqa/graph/explore.py) and their SQL twins: same columns, same order.
EXPLORE_QUERIES = {
    "explore/neighbour_counts": "graph_explore_neighbour_counts",
    "explore/neighbours_out": "graph_explore_neighbours_out",
    "explore/neighbours_in": "graph_explore_neighbours_in",
    "explore/search_entities": "graph_explore_search_entities",
    "explore/triples_by_predicate": "graph_explore_triples_by_predicate",
    "explore/untyped_count": "graph_explore_untyped_count",
    "explore/frontier_edges": "graph_explore_frontier_edges",
    "graph/top_types": "graph_top_types",
    "graph/top_predicates": "graph_top_predicates",
    "graph/count_triples": "graph_count_triples",
}
#: The migrations of the graph tables (schema/postgres_graph/), applied by the first load.
GRAPH_SCHEMA = "postgres_graph"


class PgGraph(GraphStore):
    """A workspace's graph kept in Postgres, in the schema of index `index`. It answers the few
    GraphStore calls the workspace makes itself (no Kùzu table exists, UDFs are not needed, closing
    closes the connection); everything the graph is read for goes through `PgLayout`."""

    def __init__(
        self,
        dsn: str,
        index: str,
        *,
        path: Path,
        read_only: bool = False,
        tracer: Tracer | None = None,
        views_schema: str | None = None,
        memory: MemoryCeiling | None = None,
    ):
        # no GraphStore.__init__: there is no Kùzu database to open
        self.path = path  # where a Kùzu file would be: only names the workspace (serve's state file)
        self.memory = memory or MemoryCeiling.default()
        self.tracer = tracer
        self.read_only = read_only
        self.index = index
        #: the schema of the user's own graph views (kgqa/postgres/graph_views.py); None: HubLink's tables
        self.views_schema = views_schema
        self.db = PgDatabase(dsn, schema=views_schema or schema_of(index), tracer=tracer)
        self._owns_db = True
        self._in_tx = False
        if views_schema is not None:
            try:
                check_contract(self.db, views_schema)
            except BaseException:
                self.db.close()
                raise
        self._layout = PgLayout(self)

    def exists(self) -> bool:
        """Whether the index schema holds the graph tables (a load --graph postgres ran)."""
        return bool(self.db.scalar("graph_tables_exist"))

    def ensure_tables(self) -> list[str]:
        """Create the graph tables, indexes and triggers (numbered scripts, recorded; idempotent).
        Refused on a user's own views: HubLink never writes their schema."""
        if self.views_schema is not None:
            raise refuse_writes(self.views_schema)
        return self.db.apply_migrations(GRAPH_SCHEMA)

    def give_room(self, nbytes: int) -> bool:
        """No page cache to shrink: room where `nbytes` fits the share of the memory ceiling a Kùzu page
        cache would have (a resident copy of the index, kgqa/vectorstores/pg_resident.py)."""
        return nbytes <= self.memory.pool_bytes

    def has_table(self, table: str) -> bool:
        return False  # no Kùzu table: the label index, dirty marks and metadata of Kùzu do not exist

    def register_function(self, name: str, func: Callable[..., Any], params: list[str], returns: str) -> None:
        """Kùzu UDFs are not used: `PgLayout` applies the hub-root criteria itself."""

    def run(self, name: str, params: dict[str, Any] | None = None, names: Any = None, **structural: int) -> list:
        """The exact-answer and explorer reads (kgqa/answering/, kgqa/graph/explore.py) by their Cypher
        names, answered by their SQL twins with the same columns; any other Cypher query is a StoreError
        naming it."""
        sql = ANSWERING_QUERIES.get(name) or EXPLORE_QUERIES.get(name)
        if sql is None and self.views_schema is not None:  # e.g. `kgqa triples add`
            raise refuse_writes(self.views_schema, name)
        if sql is None:
            raise StoreError(f"{name}: this needs the graph in Kùzu; with --graph postgres it is not available")
        values = dict(params or {})
        if "limit" in values:
            values["lim"] = values.pop("limit")
        if "constraints" in values:
            values["constraints"] = Jsonb(values["constraints"])
        return [list(r) for r in self.db.run(sql, values)]

    def scalar(self, name: str, params: dict[str, Any] | None = None) -> Any:
        return self.run(name, params)

    def by_key(self, keys: int, per_key_s: float, table: str) -> bool:
        """Never: the SQL twins read a list of keys through the tables' indexes in one statement."""
        return False

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self.db.transaction():
            yield

    def close(self) -> None:
        self.db.close()


class PgLayout:
    """The `GraphLayout` of the graph in Postgres (the triple layout's semantics, in SQL)."""

    name = "postgres"
    triple_tables = True  # the exact-answer reads run here in SQL (PgGraph.run)

    def __init__(self, store: PgGraph) -> None:
        self.store = store
        self.db = store.db
        # a user's own views have no `added_at`: their edges are ordered by key only
        self._edges = "graph_view_" if store.views_schema is not None else "graph_"
        #: how hub paths are enumerated: a query per hop level, or one recursive CTE (graph_paths.py)
        self.path_form = PATH_FORM

    def entities_by_ids(self, ids: list[str]) -> dict[str, Entity]:
        return {r[0]: entity_row(r) for r in self.db.run("graph_entities_by_ids", {"ids": ids})} if ids else {}

    def out_edges(self, ids: list[str]) -> list[Triple]:
        return [triple_row(r) for r in self.db.run(self._edges + "out_edges", {"ids": ids})] if ids else []

    def in_edges(self, ids: list[str]) -> list[Triple]:
        return [triple_row(r) for r in self.db.run(self._edges + "in_edges", {"ids": ids})] if ids else []

    def entities_by_label(self, text: str, limit: int) -> list[tuple[Entity, bool]]:
        rows = self.db.run("graph_entities_by_label", {"label": text, "lim": limit})
        return [(entity_row(r), bool(r[4])) for r in rows]

    def hub_root_candidates(self, ctx: UdfContext) -> list[tuple[str, str, int]]:
        params = {"hub_types": sorted(ctx.hub_types), "any_type": ctx.min_out_degree is not None}
        rows = self.db.run("graph_root_candidates", params)
        return [(r[0], r[1], int(r[3])) for r in rows if ctx.meets_criteria(list(r[2] or ()), int(r[3]))]

    def hub_paths(
        self, roots: list[str], boundary: bool, max_path_length: int, ctx: UdfContext | None
    ) -> Iterator[PathRow]:
        if self.path_form == "cte":
            return paths_by_cte(
                self.db, roots, boundary, max_path_length, lambda: sorted(ctx.root_ids) if ctx is not None else []
            )
        is_root = ctx.root_ids.__contains__ if ctx is not None else (lambda _id: False)
        return paths_by_level(roots, self.entities_by_ids(roots), self.out_edges, boundary, max_path_length, is_root)

    def hub_facts(self, hub_type: str, limit: int) -> list[HubFactRow]:
        return hub_fact_rows(self.store.run("answering/hub_facts", {"hub_type": hub_type, "limit": limit}))

    def untyped_facts(self, limit: int) -> list[HubFactRow]:
        return hub_fact_rows(self.store.run("answering/untyped_facts", {"limit": limit}))

    def is_empty(self) -> bool:
        return not self.store.exists() or not self.db.scalar("graph_has_triples")

    def predicates(self) -> list[str]:
        return [r[0] for r in self.db.run("graph_predicates") if r[0]]

    def stats(self, top: int) -> GraphStats:
        if not self.store.exists():
            return GraphStats(0, 0, 0, 0, [], [])
        entities, literals, triples, predicates = self.db.run("graph_counts")[0]
        preds = [(r[0], int(r[1])) for r in self.db.run("graph_top_predicates", {"lim": top})]
        types = [(r[0], int(r[1])) for r in self.db.run("graph_top_types", {"lim": top})]
        return GraphStats(int(entities), int(literals), int(triples), int(predicates), preds, types)

    def predicate_schema(self) -> list[SchemaRow]:
        return [(r[0], list(r[1] or []), list(r[2] or []), bool(r[3]), int(r[4])) for r in self.db.run("graph_schema")]

    def untyped_objects(self) -> list[UntypedObjectRow]:
        return [(r[0], list(r[1] or []), bool(r[2]), int(r[3])) for r in self.db.run("graph_untyped_objects")]

    def subjects_among(self, ids: list[str]) -> set[str]:
        return {r[0] for r in self.db.run("graph_subjects_among", {"ids": ids})} if ids else set()

    def object_predicates(self, ids: list[str]) -> dict[str, set[str]]:
        return by_first(self.db.run("graph_object_predicates", {"ids": ids})) if ids else {}

    def step(self, frontier: list[Entity], predicate: str, direction: int, cap: int) -> list[StepRow]:
        query = "graph_step_out" if direction > 0 else "graph_step_in"
        rows = self.db.run(query, {"ids": [e.id for e in frontier], "predicate": predicate, "cap": cap})
        return [(r[0], r[1], r[2] or "", bool(r[3]), list(r[4] or [])) for r in rows]

    def labels_in_text(self, text: str, min_len: int, limit: int) -> list[Entity]:
        rows = self.db.run("graph_labels_in_text", {"text": text, "min_len": min_len, "lim": limit})
        return [entity_row(r) for r in rows]


def open_pg_graph(settings: Settings, *, read_only: bool = False, tracer: Tracer | None = None) -> PgGraph:
    """The graph in Postgres of the workspace `settings` names (its DSN and index), read from the
    user's own views where `settings.graph_schema` names their schema (checked against the contract)."""
    from kgqa.postgres.server import resolve_dsn

    return PgGraph(
        resolve_dsn(settings),
        settings.index_name,
        path=settings.db_path,
        read_only=read_only,
        tracer=tracer,
        views_schema=settings.graph_schema,
        memory=settings.memory,
    )
