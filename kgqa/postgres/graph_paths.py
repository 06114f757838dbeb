"""Hub path enumeration of the graph in Postgres, in its two set-based forms: one query per hop level
over the whole frontier (`paths_by_level`, shared with a user's own Kùzu tables), or one recursive CTE
(`sql/postgres/queries/graph_hub_paths.sql`). Both give the same paths (tested); `PATH_FORM` is the
faster one as measured by bench/pg_graph_scale.py (docs/postgres-graph.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from kgqa.graph.layout import PathRow
from kgqa.graph.property_layout import path_row
from kgqa.postgres.database import PgDatabase
from kgqa.types import Entity

#: The forms of hub path enumeration: "levels" (a query per hop level) or "cte" (one recursive CTE).
PATH_FORMS = ("levels", "cte")
#: The form PgLayout uses (measured: docs/postgres-graph.md#measured).
PATH_FORM = "cte"


def paths_by_cte(
    db: PgDatabase,
    roots: list[str],
    boundary: bool,
    max_path_length: int,
    hub_roots: Callable[[], list[str]],
) -> Iterator[PathRow]:
    """The maximal acyclic outbound paths of `roots` (the rules of `paths_by_level`) from one recursive
    CTE; `hub_roots` gives every hub root (no path passes through one)."""
    if not roots:
        return
    params = {"roots": roots, "hub_roots": hub_roots(), "boundary": boundary, "max_len": max_path_length}
    for _root, ids, labels, lits, preds in db.run("graph_hub_paths", params):
        nodes = tuple(Entity(i, label or "", (), bool(lit)) for i, label, lit in zip(ids, labels, lits))
        yield path_row(nodes, tuple(preds))
