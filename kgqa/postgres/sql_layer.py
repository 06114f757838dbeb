"""The SQL layer over the Postgres index (`sql/postgres/*.sql`): views, the in-database HubLink
ranking functions and the view of past questions. `kgqa sql install` applies it; every script is
CREATE OR REPLACE, so installing again updates it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgqa import assets
from kgqa.errors import ConfigError, IndexMissingError
from kgqa.postgres.database import PgDatabase
from kgqa.postgres.indexes import is_shared_script, schema_of

PREFIX = "sql/postgres/"
#: An object the layer creates; missing after the index tables were dropped (views go with them).
MARKER_VIEW = "hub_path_triples"
#: A role name the install may create (it is spliced into GRANTs with format('%I'), and checked here).
ROLE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def installed(db: PgDatabase) -> bool:
    """Whether the layer was ever installed in this database."""
    return any(name.startswith(PREFIX) for name in db.applied())


def present(db: PgDatabase) -> bool:
    """Whether the layer's views exist now."""
    return bool(db.scalar("relation_exists", {"name": f"{db.schema}.{MARKER_VIEW}"}))


@dataclass(frozen=True)
class InstallOptions:
    """What `kgqa sql install` may set beside the scripts (None: keep what the last install set)."""

    asker_role: str | None = None
    worker_role: str | None = None
    queue_cap: int | None = None
    default: bool = False


def check_role_name(name: str) -> str:
    """A role name `kgqa sql install` may create: lower-case letters, digits and `_`, at most 63."""
    if not ROLE_NAME.fullmatch(name):
        raise ConfigError(
            f"invalid role name {name!r}: use lower-case letters, digits and '_' (a letter or '_' first, at most 63)"
        )
    return name


def install(db: PgDatabase, options: InstallOptions | None = None) -> list[str]:
    """Apply every script of `sql/postgres/` in one transaction; returns their names. `options`: role
    names, the queue cap and whether this index becomes the default (docs/postgres-roles.md)."""
    options = options or InstallOptions()
    if options.queue_cap is not None and options.queue_cap < 0:
        raise ConfigError(f"--queue-cap must be >= 0, got {options.queue_cap}")
    if not db.scalar("index_tables_exist"):
        index = db.schema.removeprefix("kgqa_")
        raise IndexMissingError(
            f"no HubLink index named '{index}' in this Postgres database (pick one with "
            "--index NAME, see `kgqa index list --store pgvector`), or build one with "
            "`kgqa index build --store pgvector` / `kgqa index sync --to pgvector`"
        )
    names = []
    with db.transaction():
        for setting, value in (
            ("kgqa.install_asker_role", options.asker_role and check_role_name(options.asker_role)),
            ("kgqa.install_worker_role", options.worker_role and check_role_name(options.worker_role)),
            ("kgqa.install_queue_cap", None if options.queue_cap is None else str(options.queue_cap)),
        ):
            db.run("set_local_setting", {"name": setting, "value": value or ""})
        for name, text in assets.sql_scripts("postgres"):
            db.script(name, text, shared=is_shared_script(text))
            db.run("record_script", {"name": name})
            names.append(name)
        if options.default:
            db.run("set_default_index", {"name": db.schema.removeprefix("kgqa_")})
    return names


def install_into(
    dsn: str, index: str, *, explicit: bool = True, options: InstallOptions | None = None
) -> tuple[str, list[str]]:
    """Install the layer into the schema of index `index` in the Postgres database named by `dsn`
    (`kgqa sql install`); returns the index name and the scripts. A name that was not given
    explicitly (derived from the database path) falls back to the only index the server holds."""
    if not explicit:
        index = _only_index(dsn, index)
    db = PgDatabase(dsn, schema=schema_of(index))
    try:
        return index, install(db, options)
    finally:
        db.close()


def _only_index(dsn: str, derived: str) -> str:
    db = PgDatabase(dsn)
    try:
        names = [r[0] for r in db.run("list_indexes")] if db.scalar("registry_exists") else []
    finally:
        db.close()
    return names[0] if derived not in names and len(names) == 1 else derived
