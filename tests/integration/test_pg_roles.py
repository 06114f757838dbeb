"""Roles of the Postgres question queue (real pgserver, real model, a real `kgqa serve`): `kgqa sql
install --asker-role/--worker-role` creates them; the service runs as a member of the worker role only;
two askers each read only their own questions and cannot forge a queue row, write the index or read the
answers log; a role that is not an asker gets 42501 naming the GRANT; the per-role cap on queued
questions; CALL kgqa.ask inside a transaction block names what to do instead; with two indexes the
default one answers unqualified calls and `kgqa index list` shows it."""

from __future__ import annotations

import time

import psycopg
import pytest
from psycopg import conninfo, sql
from serve_helpers import Service, build_demo_db, kgqa

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.demo import DEMO_QUESTIONS
from kgqa.postgres.database import with_database

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

QUESTION = DEMO_QUESTIONS[0][0]
ASKER, WORKER = "t_asker", "t_worker"
LOGINS = {"alice": ASKER, "bob": ASKER, "w1": WORKER, "nobody": None}


def as_role(dsn: str, role: str) -> str:
    """The DSN of a login role (`kgqa pg start` asks every role for its password: scram-sha-256)."""
    return conninfo.make_conninfo(dsn, user=role, password=password_of(role))


def password_of(role: str) -> str:
    return f"{role}-test-password"


@pytest.fixture(scope="module")
def roles_db(pg_server, tmp_path_factory, embedder):
    """The demo index in its own database, `sql install` with named roles, and four login roles."""
    db = build_demo_db(tmp_path_factory.mktemp("roles") / "demo.kuzu", embedder)
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier("roles")))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier("roles")))
    dsn = with_database(pg_server, "roles")
    with Workspace(Settings(db_path=db)) as ws:
        ws.sync_index("pgvector", pg_dsn=dsn)
    out = kgqa(
        db, "sql", "install", "--store", "pgvector", "--pg-dsn", dsn, "--asker-role", ASKER, "--worker-role", WORKER
    )
    assert out.returncode == 0, out.stderr
    with psycopg.connect(dsn, autocommit=True) as conn:
        for login, group in LOGINS.items():
            conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(login)))
            conn.execute(
                sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                    sql.Identifier(login), sql.Literal(password_of(login))
                )
            )
            if group:
                conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(group), sql.Identifier(login)))
    yield db, dsn
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier("roles")))
        for login in LOGINS:
            conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(login)))


def refused(conn: psycopg.Connection, statement: str, params: dict | None = None) -> psycopg.Error:
    with pytest.raises(psycopg.Error) as err:
        conn.execute(statement, params)
    return err.value


def test_askers_see_only_their_own_questions_and_cannot_forge_or_write(roles_db):
    db, dsn = roles_db
    svc = Service(db, "--store", "pgvector", "--pg-dsn", as_role(dsn, "w1"))  # the worker role suffices
    try:
        with (
            psycopg.connect(as_role(dsn, "alice"), autocommit=True) as alice,
            psycopg.connect(as_role(dsn, "bob"), autocommit=True) as bob,
        ):
            answer, result, _, _ = alice.execute("CALL kgqa.ask(%(q)s)", {"q": QUESTION}).fetchone()
            assert answer and "[1]" in answer
            mine = alice.execute("SELECT kgqa.submit(%(q)s)", {"q": QUESTION}).fetchone()[0]
            assert alice.execute("SELECT answer FROM kgqa.wait(%(id)s)", {"id": mine}).fetchone()[0] == answer
            # bob sees none of alice's questions, by id, in the table or in his view
            err = refused(bob, "SELECT * FROM kgqa.wait(%(id)s, 5)", {"id": mine})
            assert err.sqlstate == "22023" and f"no question with id {mine}" in str(err)
            assert bob.execute("SELECT count(*) FROM kgqa.queue").fetchone() == (0,)
            assert bob.execute("SELECT count(*) FROM kgqa.my_questions").fetchone() == (0,)
            assert alice.execute("SELECT count(*) FROM kgqa.my_questions").fetchone() == (2,)
            # no forged status or reply, no update of the queue
            err = refused(alice, "INSERT INTO kgqa.queue (index_name, question, status) VALUES ('demo', 'x', 'done')")
            assert err.sqlstate == "42501"
            err = refused(alice, "UPDATE kgqa.queue SET reply = '{}'::jsonb, status = 'done'")
            assert err.sqlstate == "42501"
            # no index writes and no reading of the shared answers log
            for statement in (
                "DELETE FROM kgqa_demo.hubs",
                "INSERT INTO kgqa.indexes (name) VALUES ('mine')",
                "SELECT * FROM kgqa.answers",
            ):
                assert refused(alice, statement).sqlstate == "42501", statement
        with psycopg.connect(as_role(dsn, "nobody"), autocommit=True) as nobody:
            err = refused(nobody, "SELECT kgqa.submit(%(q)s)", {"q": QUESTION})
            assert err.sqlstate == "42501" and f"GRANT {ASKER} TO nobody;" in err.diag.message_primary, str(err)
            assert refused(nobody, "CALL kgqa.ask(%(q)s)", {"q": QUESTION}).sqlstate == "42501"
        # inside a transaction block: 2D000, and the message itself says what to do instead
        with psycopg.connect(as_role(dsn, "alice")) as alice_tx:
            alice_tx.execute("SELECT 1")
            err = refused(alice_tx, "CALL kgqa.ask(%(q)s)", {"q": QUESTION})
            assert err.sqlstate == "2D000", str(err)
            message = err.diag.message_primary or ""
            assert "inside a transaction block" in message and "kgqa.submit" in message, message
            assert "kgqa.wait" in message and "autocommit" in message, message
            assert 'isolation_level="AUTOCOMMIT"' in (err.diag.message_hint or ""), str(err)
            alice_tx.rollback()
            assert alice_tx.execute("SELECT count(*) FROM kgqa.my_questions").fetchone()[0] == 2  # none added
    finally:
        assert svc.stop() == 0
    with psycopg.connect(dsn, autocommit=True) as admin:  # the worker logged the answers
        assert admin.execute("SELECT count(*) FROM kgqa.answers WHERE index_name = 'demo'").fetchone()[0] >= 2
        logged = admin.execute(
            "SELECT result FROM kgqa.answers WHERE question = %(q)s ORDER BY id LIMIT 1", {"q": QUESTION}
        )
        assert logged.fetchone()[0] == result  # the structured result is logged too
        owners = dict(admin.execute("SELECT submitted_by, count(*) FROM kgqa.queue GROUP BY 1").fetchall())
        assert owners == {"alice": 2}


def test_queue_cap_per_role(roles_db):
    _, dsn = roles_db
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(
            "INSERT INTO kgqa.queue_caps VALUES ('bob', 3) ON CONFLICT (role_name) DO UPDATE SET max_queued = 3"
        )
    with (
        psycopg.connect(as_role(dsn, "bob"), autocommit=True) as bob,
        psycopg.connect(as_role(dsn, "alice"), autocommit=True) as alice,
    ):
        for i in range(3):  # no worker runs: they stay queued
            bob.execute("SELECT kgqa.submit(%(q)s)", {"q": f"{QUESTION} {i}"})
        err = refused(bob, "SELECT kgqa.submit(%(q)s)", {"q": QUESTION})
        assert err.sqlstate == "53400" and "role bob has 3 questions queued, its limit" in str(err)
        err = refused(bob, "INSERT INTO kgqa.queue (index_name, question) VALUES ('demo', 'direct')")
        assert err.sqlstate == "53400"  # the cap holds for a direct INSERT too
        assert alice.execute("SELECT kgqa.submit(%(q)s)", {"q": QUESTION}).fetchone()[0]  # another role is not held up


def test_default_index_among_two(roles_db, tmp_path, embedder):
    db, dsn = roles_db
    other = build_demo_db(tmp_path / "other.kuzu", embedder)
    with Workspace(Settings(db_path=other, index="other")) as ws:
        ws.sync_index("pgvector", pg_dsn=dsn)
    with psycopg.connect(dsn, autocommit=True) as admin:
        err = refused(admin, "SELECT kgqa.submit('x')")
        assert err.sqlstate == "22023" and "name the index" in str(err) and "--default" in (err.diag.message_hint or "")
    out = kgqa(other, "--index", "other", "sql", "install", "--store", "pgvector", "--pg-dsn", dsn, "--default")
    assert out.returncode == 0 and "index 'other' is the default" in out.stdout, out.stderr
    listed = kgqa(other, "index", "list", "--store", "pgvector", "--pg-dsn", dsn)
    assert listed.returncode == 0, listed.stderr
    lines = {line.split("\t")[0]: line for line in listed.stdout.splitlines()}
    assert "other (default)" in lines and "demo" in lines, listed.stdout
    assert lines["other (default)"].endswith(str(other.resolve()))  # absolute paths in the registry
    with psycopg.connect(dsn, autocommit=True) as admin:
        qid = admin.execute("SELECT kgqa.submit('x')").fetchone()[0]
        assert admin.execute("SELECT index_name FROM kgqa.queue WHERE id = %(id)s", {"id": qid}).fetchone() == (
            "other",
        )
        admin.execute("DELETE FROM kgqa.queue WHERE id = %(id)s", {"id": qid})
    # dropping an index stops its worker, with a message that says what to do
    svc = Service(other, "--index", "other", "--store", "pgvector", "--pg-dsn", dsn)
    try:
        with psycopg.connect(dsn, autocommit=True) as admin:
            assert admin.execute("SELECT kgqa.worker_alive('other')").fetchone() == (True,)
            dropped = kgqa(other, "index", "drop", "other", "--yes", "--store", "pgvector", "--pg-dsn", dsn)
            assert dropped.returncode == 0, dropped.stderr
            deadline = time.monotonic() + 10
            while admin.execute("SELECT count(*) FROM kgqa.workers WHERE index_name = 'other'").fetchone()[0]:
                assert time.monotonic() < deadline, "the worker of the dropped index still beats"
                time.sleep(0.2)
    finally:
        svc.stop()
    assert "index 'other' was dropped from Postgres" in svc.proc.stderr.read()
