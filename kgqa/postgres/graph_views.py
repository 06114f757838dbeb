"""Your own tables (`--graph-schema`, `KGQA_PG_GRAPH_SCHEMA`, the `graph_schema` setting): the view
contract that lets HubLink read a graph from a user's own relational schema in place. The user defines two views (or tables) in a schema of their
choosing, `entities (id text, label text, types text[], is_literal boolean)` and `triples (subject
text, predicate text, object text)`; HubLink reads them, never writes that schema, and keeps its index
in its own `kgqa_<index>` schema. See docs/postgres-graph.md#your-own-tables."""

from __future__ import annotations

from kgqa.config import GRAPH_SCHEMA_SETTING
from kgqa.errors import GraphViewError
from kgqa.postgres.database import PgDatabase

#: The view contract: view -> column -> the Postgres types (udt names) accepted for it.
_TEXT = ("text", "varchar")
CONTRACT: dict[str, dict[str, tuple[str, ...]]] = {
    "entities": {"id": _TEXT, "label": _TEXT, "types": ("_text", "_varchar"), "is_literal": ("bool",)},
    "triples": {"subject": _TEXT, "predicate": _TEXT, "object": _TEXT},
}
_SHOWN = {"_text": "text[]", "_varchar": "varchar[]", "bool": "boolean"}


def check_contract(db: PgDatabase, schema: str) -> None:
    """Raise GraphViewError naming the view and column when `schema` breaks the view contract."""
    found: dict[str, dict[str, str]] = {}
    for table, column, udt in db.run("graph_view_columns", {"schema": schema}):
        found.setdefault(table, {})[column] = udt
    for view, columns in CONTRACT.items():
        if view not in found:
            raise GraphViewError(
                f"{GRAPH_SCHEMA_SETTING} is {schema}: no view or table {schema}.{view}; create it with the columns "
                f"{', '.join(columns)} (docs/postgres-graph.md#your-own-tables)"
            )
        for column, types in columns.items():
            udt = found[view].get(column)
            if udt is None:
                raise GraphViewError(f"{schema}.{view} has no column '{column}' (the view contract needs it)")
            if udt not in types:
                raise GraphViewError(
                    f"{schema}.{view}.{column} is {_SHOWN.get(udt, udt)}, the view contract needs "
                    f"{_SHOWN.get(types[0], types[0])} (cast it in the view)"
                )


def refuse_writes(schema: str, what: str = "kgqa load") -> GraphViewError:
    """The error of a HubLink write (`kgqa load`, `triples add`) into a user's own views, or of a
    Kùzu-only part asked to run on them."""
    return GraphViewError(
        f"{what}: not available here, the graph is read from your own views in schema '{schema}' ({GRAPH_SCHEMA_SETTING}): HubLink never writes "
        "them; change your own tables with SQL, then run `kgqa index update`"
    )
