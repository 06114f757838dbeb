"""Index builds that several processes share (pgvector): two worker processes build the index a single
process builds; a worker killed mid-batch has its batch taken over; bad input is refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import psycopg
import pytest

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.indexing.builder import BuildReport
from kgqa.indexing.shared_build import build_shared

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

PARAMS = IndexParams(hub_types=("Paper",), hubs_per_batch=4)
LEASE_S = 2.0


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, embedder) -> Path:
    """The demo graph in its own Kùzu database (no index in it)."""
    db = tmp_path_factory.mktemp("shared") / "demo.kuzu"
    with Workspace.init(Settings(db_path=db), embedder=embedder) as ws:
        ws.load(demo_graph_path())
    return db


def settings(db: Path, dsn: str, index: str) -> Settings:
    return Settings(db_path=db, store="pgvector", pg_dsn=dsn, index=index)


def build_single(db: Path, dsn: str, embedder) -> BuildReport:
    with Workspace(settings(db, dsn, "single"), embedder=embedder) as ws:
        return ws.build_index(PARAMS)


def build_with_workers(db: Path, dsn: str, embedder, workers: int = 2) -> BuildReport:
    with Workspace(settings(db, dsn, "shared"), read_only=True, embedder=embedder) as ws:
        return build_shared(
            ws.store, ws.vstore, ws.embedder, PARAMS, settings=ws.settings, workers=workers, lease_s=LEASE_S
        )


def rows(dsn: str, query: str) -> list[tuple]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute(query).fetchall()


def assert_same_index(dsn: str, a: str, b: str) -> None:
    """Hubs, paths, HubVectors and texts as row sets; embeddings equal up to float32 tolerance."""
    for table, cols in (
        ("hubs", "id, label, depth, path_count, signature"),
        ("hub_paths", "hash, hub_id, text, triples::text, length"),
        ("hub_vectors", "path_hash, level, text_hash"),
        ("embedded_texts", "hash, text"),
    ):
        left = set(rows(dsn, f"SELECT {cols} FROM kgqa_{a}.{table}"))
        right = set(rows(dsn, f"SELECT {cols} FROM kgqa_{b}.{table}"))
        assert left and left == right, (table, len(left), len(right), sorted(left ^ right)[:3])
    vectors = {}
    for name in (a, b):
        got = rows(dsn, f"SELECT embedding::text FROM kgqa_{name}.embedded_texts ORDER BY hash")
        vectors[name] = np.array([json.loads(v) for (v,) in got], dtype=np.float32)
    np.testing.assert_allclose(vectors[a], vectors[b], atol=1e-5)


def test_two_workers_build_what_one_process_builds(demo_db, pg_database, embedder):
    single = build_single(demo_db, pg_database, embedder)
    shared = build_with_workers(demo_db, pg_database, embedder)
    assert_same_index(pg_database, "single", "shared")
    assert (shared.hubs_rebuilt, shared.paths_written, shared.hubs_without_paths) == (
        single.hubs_rebuilt,
        single.paths_written,
        single.hubs_without_paths,
    )
    assert shared.counts == single.counts
    workers = {w.split(":")[1] for (w,) in rows(pg_database, "SELECT leased_by FROM kgqa_shared.build_queue")}
    assert len(workers) == 2  # both processes built batches
    assert rows(pg_database, "SELECT count(*) FROM kgqa_shared.build_queue WHERE status <> 'done'") == [(0,)]
    again = build_with_workers(demo_db, pg_database, embedder)  # nothing changed: nothing rebuilt
    assert again.nothing_to_do and again.hubs_unchanged == single.hubs_rebuilt


def test_a_killed_workers_batch_is_taken_over(demo_db, pg_database, embedder):
    build_single(demo_db, pg_database, embedder)
    outcome: dict = {}

    def coordinate() -> None:
        try:
            outcome["report"] = build_with_workers(demo_db, pg_database, embedder)
        except BaseException as exc:  # handed to the test thread
            outcome["error"] = exc

    coordinator = threading.Thread(target=coordinate)
    coordinator.start()
    deadline = time.monotonic() + 300
    with psycopg.connect(pg_database) as blocker:
        # the coordinator makes the tables, then queues the batches and starts the workers (seconds to
        # load): the lock holds every worker at its batch's first write
        while rows(pg_database, "SELECT to_regclass('kgqa_shared.hubs')") == [(None,)]:
            assert time.monotonic() < deadline and coordinator.is_alive(), outcome
            time.sleep(0.05)
        blocker.execute("LOCK TABLE kgqa_shared.hubs IN SHARE MODE")
        while (
            len(
                rows(
                    pg_database,
                    "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
                )
            )
            < 2
        ):
            assert time.monotonic() < deadline and coordinator.is_alive(), outcome
            time.sleep(0.2)
        number, victim = rows(
            pg_database,
            "SELECT batch_no, leased_by FROM kgqa_shared.build_queue "
            "WHERE status = 'running' ORDER BY batch_no LIMIT 1",
        )[0]
        os.kill(int(victim.split(":")[1]), signal.SIGKILL)  # mid-batch: its write transaction is open
        blocker.rollback()
    coordinator.join(timeout=600)
    assert "error" not in outcome, outcome.get("error")
    status, holder, attempts = rows(
        pg_database, f"SELECT status, leased_by, attempts FROM kgqa_shared.build_queue WHERE batch_no = {int(number)}"
    )[0]
    assert status == "done" and holder != victim and attempts == 2
    assert_same_index(pg_database, "single", "shared")


def kgqa(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k not in ("KGQA_PG_DSN", "KGQA_STORE", "KGQA_INDEX")}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *args], capture_output=True, text=True, env=full_env, timeout=300
    )


def test_bad_input_is_refused(demo_db, pg_database):
    zero = kgqa(
        "--db", str(demo_db), "index", "build", "--store", "pgvector", "--pg-dsn", pg_database, "--workers", "0"
    )
    assert zero.returncode != 0 and "--workers" in zero.stderr and "at least 1" in zero.stderr, zero.stderr
    no_dsn = kgqa("--db", str(demo_db), "index", "build", "--store", "pgvector", "--workers", "2")
    assert no_dsn.returncode != 0 and "no Postgres DSN" in no_dsn.stderr, no_dsn.stderr
    kuzu = kgqa("--db", str(demo_db), "index", "build", "--workers", "2")
    assert kuzu.returncode != 0 and "needs the pgvector store" in kuzu.stderr, kuzu.stderr
    idle = kgqa("--db", str(demo_db), "index", "worker", "--pg-dsn", pg_database, "--index", "nothing")
    assert idle.returncode == 3 and "no index build of index 'nothing' waits for workers" in idle.stderr, idle.stderr
    assert rows(pg_database, "SELECT 1 FROM pg_namespace WHERE nspname = 'kgqa_nothing'") == []


def test_the_cli_builds_with_workers(demo_db, pg_database):
    base = (
        "--db",
        str(demo_db),
        "index",
        "build",
        "--store",
        "pgvector",
        "--pg-dsn",
        pg_database,
        "--index",
        "cli",
        "--hubs-per-batch",
        "8",
        "--workers",
        "2",
    )
    built = kgqa(*base)
    assert built.returncode == 0 and "0 unchanged, 0 removed" in built.stdout, built.stdout + built.stderr
    hubs = rows(pg_database, "SELECT count(*) FROM kgqa_cli.hubs")[0][0]
    assert hubs and f"rebuilt {hubs} of {hubs} hubs ({hubs} new" in built.stdout, built.stdout
    again = kgqa(*base)
    assert again.returncode == 0 and f"index up to date: {hubs} hubs checked" in again.stdout, again.stdout
