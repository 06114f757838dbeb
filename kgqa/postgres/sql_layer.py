"""The SQL layer over the Postgres index (`sql/postgres/*.sql`): views, the in-database HubLink
ranking functions and the view of past questions. `kgqa sql install` applies it; every script is
CREATE OR REPLACE, so installing again updates it."""

from __future__ import annotations

from kgqa import assets
from kgqa.errors import IndexMissingError
from kgqa.postgres.database import PgDatabase
from kgqa.postgres.indexes import is_shared_script, schema_of

PREFIX = "sql/postgres/"
#: An object the layer creates; missing after the index tables were dropped (views go with them).
MARKER_VIEW = "hub_path_triples"


def installed(db: PgDatabase) -> bool:
    """Whether the layer was ever installed in this database."""
    return any(name.startswith(PREFIX) for name in db.applied())


def present(db: PgDatabase) -> bool:
    """Whether the layer's views exist now."""
    return bool(db.scalar("relation_exists", {"name": f"{db.schema}.{MARKER_VIEW}"}))


def install(db: PgDatabase) -> list[str]:
    """Apply every script of `sql/postgres/` in one transaction; returns their names."""
    if not db.scalar("index_tables_exist"):
        index = db.schema.removeprefix("kgqa_")
        raise IndexMissingError(
            f"no HubLink index named '{index}' in this Postgres database (pick one with "
            "--index NAME, see `kgqa index list --store pgvector`), or build one with "
            "`kgqa index build --store pgvector` / `kgqa index sync --to pgvector`"
        )
    names = []
    with db.transaction():
        for name, text in assets.sql_scripts("postgres"):
            db.script(name, text, shared=is_shared_script(text))
            db.run("record_script", {"name": name})
            names.append(name)
    return names


def install_into(dsn: str, index: str, *, explicit: bool = True) -> tuple[str, list[str]]:
    """Install the layer into the schema of index `index` in the Postgres database named by `dsn`
    (`kgqa sql install`); returns the index name and the scripts. A name that was not given
    explicitly (derived from the database path) falls back to the only index the server holds."""
    if not explicit:
        index = _only_index(dsn, index)
    db = PgDatabase(dsn, schema=schema_of(index))
    try:
        return index, install(db)
    finally:
        db.close()


def _only_index(dsn: str, derived: str) -> str:
    db = PgDatabase(dsn)
    try:
        names = [r[0] for r in db.run("list_indexes")] if db.scalar("registry_exists") else []
    finally:
        db.close()
    return names[0] if derived not in names and len(names) == 1 else derived
