"""The upgrade of a database made before HubLink's own tables carried the reserved `kgqa_` prefix.

Earlier releases named them `Hub`, `KgqaMeta`, ...; a user's schema could hold the same names. The
first writable open renames each one in place (`ALTER TABLE Hub RENAME TO kgqa_Hub`): no rebuild of
the graph, no re-embedding. Kùzu 0.11.3 keeps a renamed table's rows, rel connections and HNSW vector
index (the index keeps its old name, which is scoped to its table, so it cannot clash with a user's);
dropping and recreating an index instead needs a checkpoint and a reopen in between, so it is not done.
A read-only open of such a database is refused with a SchemaError saying to open it writable once.
`Entity` and `Triple` keep their names: they are the graph in HubLink's triple layout."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgqa.assets import CatalogName
from kgqa.errors import SchemaError, StoreBusyError, StoreError

if TYPE_CHECKING:
    from kgqa.graph.store import GraphStore

#: HubLink's own tables under the names of earlier releases.
LEGACY_NAMES = (
    "KgqaMeta",
    "SchemaMigration",
    "DirtyHub",
    "Hub",
    "HubPath",
    "HasPath",
    "EmbeddedText",
    "Embeds",
    "LabelText",
    "LabelOf",
    "PredicateText",
    "TripleText",
    "TripleTextOf",
    "Passage",
    "Asserts",
)
PREFIX = "kgqa_"
#: The schema folders whose scripts HubLink's old migration log records.
_OLD_KINDS = frozenset({"meta", "graph", "hubindex", "labelindex", "textkg"})
#: The record of this upgrade in the migration log.
MIGRATION = "upgrade/001_kgqa_prefix"


def legacy_tables(store: GraphStore) -> list[str]:
    """HubLink's own tables still under their old names (none on a current or a user's own database:
    a database counts as an old HubLink one only when it has the old `SchemaMigration` log and no
    `kgqa_SchemaMigration`, so a user's table named `Hub` is never touched)."""
    names = {str(r[1]) for r in store.catalog("show_tables")}
    if "SchemaMigration" not in names or PREFIX + "SchemaMigration" in names:
        return []
    if not _is_hublink_log(store):
        return []  # the user's own table of that name: never touched
    return [n for n in LEGACY_NAMES if n in names and PREFIX + n not in names]


def _is_hublink_log(store: GraphStore) -> bool:
    """Whether the table `SchemaMigration` is HubLink's old migration log (it records HubLink's own
    schema scripts), not a table of the user's that happens to have that name."""
    try:
        rows = store.run("meta/legacy_migrations", names={"log": CatalogName("SchemaMigration")})
    except StoreBusyError:
        raise
    except StoreError:
        return False  # no `name` property: not HubLink's
    return any(str(r[0]).split("/", 1)[0] in _OLD_KINDS for r in rows)


def upgrade_prefix(store: GraphStore) -> list[str]:
    """Rename the old-named tables to `kgqa_*` in one transaction and record the upgrade; return
    the names renamed. SchemaError on a read-only store that needs it."""
    old = legacy_tables(store)
    if not old:
        return []
    if store.read_only:
        raise SchemaError(
            f"{store.path} was made by an earlier HubLink release (tables {', '.join(old)} lack the kgqa_ "
            f"prefix); open it writable once (`kgqa init --db {store.path}`) to upgrade it in place"
        )
    with store.transaction():
        for name in old:
            store.run("meta/rename_table", names={"old": CatalogName(name), "new": CatalogName(PREFIX + name)})
        store.run("meta/record_migration", {"name": MIGRATION})
    return old
