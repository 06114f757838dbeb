"""A database made by the release before HubLink's own tables carried the `kgqa_` prefix is upgraded
in place on its first writable open: tables renamed, nothing rebuilt or re-embedded, same answers."""

from __future__ import annotations

from pathlib import Path

import kuzu
import pytest

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.errors import SchemaError
from kgqa.graph.own_prefix import LEGACY_NAMES, MIGRATION

OLD_SCHEMA = Path(__file__).parent.parent / "fixtures" / "prefix_upgrade" / "old_schema.cypher"
QUESTION = "Which papers were published at ICSA in 2019?"


def _columns(conn: kuzu.Connection, table: str) -> list[tuple[str, str]]:
    return [(str(r[1]), str(r[2])) for r in conn.execute(f"CALL table_info('{table}') RETURN *").get_all()]


def _tables(conn: kuzu.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute("CALL show_tables() RETURN name").get_all()}


def _old_release_tables(tmp_path: Path) -> dict[str, list[tuple[str, str]]]:
    """Every table the previous release's schema scripts (git show 0f760c2:schema/...) create, with
    its columns."""
    db = kuzu.Database(str(tmp_path / "old-schema.kuzu"))
    conn = kuzu.Connection(db)
    lines = OLD_SCHEMA.read_text().replace("{{dim}}", "384").splitlines()
    script = "\n".join(line for line in lines if not line.strip().startswith("//"))
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)
    tables = {name: _columns(conn, name) for name in _tables(conn)}
    conn.close()
    db.close()
    return tables


def _downgrade(path: Path) -> None:
    """Give a current database the previous release's table names (what that release wrote)."""
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    for name in LEGACY_NAMES:
        if f"kgqa_{name}" in _tables(conn):
            conn.execute(f"ALTER TABLE kgqa_{name} RENAME TO {name}")
    conn.close()
    db.close()


def test_old_release_database_upgrades_in_place(tmp_path, embedder):
    path = tmp_path / "demo.kuzu"
    params = RetrievalParams(topic_entity="F01", hubs_to_keep=10)
    ws = Workspace.init(Settings(db_path=path), embedder=embedder)
    ws.load(demo_graph_path())
    ws.build_index(IndexParams(hub_types=("Paper",)))
    before = ws.ask(QUESTION, params)
    ws.close()

    _downgrade(path)
    old = _old_release_tables(tmp_path)
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    downgraded = _tables(conn)
    # the downgraded database has the previous release's tables, column for column
    assert {"Hub", "HubPath", "EmbeddedText", "KgqaMeta", "SchemaMigration"} <= downgraded
    assert not any(n.startswith("kgqa_") for n in downgraded)
    for name in downgraded:
        assert _columns(conn, name) == old[name], name
    conn.close()
    db.close()

    # read-only: a clear error, the database unchanged
    with pytest.raises(SchemaError, match="open it writable once"):
        Workspace(Settings(db_path=path), read_only=True, embedder=embedder)

    ws = Workspace(Settings(db_path=path), embedder=embedder)
    try:
        tables = {str(r[1]) for r in ws.store.catalog("show_tables")}
        assert not tables & set(LEGACY_NAMES)
        assert {f"kgqa_{n}" for n in downgraded if n not in ("Entity", "Triple")} <= tables
        assert MIGRATION in ws.store.applied_migrations()
        # nothing to rebuild or re-embed: the index is the one built before the upgrade
        report = ws.build_index(IndexParams(hub_types=("Paper",)))
        assert report.nothing_to_do and report.texts_embedded == 0
        after = ws.ask(QUESTION, params)
    finally:
        ws.close()
    assert after.answer == before.answer
    assert [s.hub_id for s in after.sources] == [s.hub_id for s in before.sources]

    # a second open finds nothing to upgrade; read-only opens work again
    ws = Workspace(Settings(db_path=path), read_only=True, embedder=embedder)
    try:
        assert ws.ask(QUESTION, params).answer == before.answer
    finally:
        ws.close()


def test_user_tables_named_like_old_hublink_tables_are_never_renamed(tmp_path):
    """A user's own graph with tables called `SchemaMigration` and `Hub` is not an old HubLink database."""
    from kgqa.graph.store import GraphStore

    path = tmp_path / "mine.kuzu"
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    conn.execute("CREATE NODE TABLE SchemaMigration(version STRING PRIMARY KEY, note STRING)")
    conn.execute("CREATE NODE TABLE Hub(id STRING PRIMARY KEY, name STRING)")
    conn.execute("CREATE (:SchemaMigration {version: 'v1', note: 'mine'}), (:Hub {id: 'h1', name: 'Main hub'})")
    conn.close()
    db.close()
    with GraphStore(path) as store:
        assert {str(r[1]) for r in store.catalog("show_tables")} == {"SchemaMigration", "Hub"}
    # a table of that name with a `name` column that records no HubLink script: not touched either
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    conn.execute("DROP TABLE SchemaMigration")
    conn.execute("CREATE NODE TABLE SchemaMigration(name STRING PRIMARY KEY)")
    conn.execute("CREATE (:SchemaMigration {name: 'add_users_table'})")
    conn.close()
    db.close()
    with GraphStore(path) as store:
        assert {str(r[1]) for r in store.catalog("show_tables")} == {"SchemaMigration", "Hub"}
