"""Issue #28 point 4: a worker killed in the middle of a refresh loses nothing. Two `kgqa serve --graph
postgres` workers share one graph in Postgres; many new authors are inserted with plain SQL (every paper
marked dirty); the worker that took the marks is killed with SIGKILL while it rebuilds their hubs; the
other takes the marks again and finishes. In the end no mark is left, the surviving worker refreshed
every marked entity, every inserted fact is in the index, and the index equals what the graph gives
now (`index update` finds nothing to rebuild). Real Postgres, real model, real processes."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from serve_helpers import Service

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import demo_graph_path

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

#: New authors per paper: enough hubs and texts that a refresh takes a while on a small machine.
PER_PAPER = 6
#: The lock a refresh holds on the marks while it rebuilds (its FOR UPDATE ... SKIP LOCKED claim).
REFRESHING = """
SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.relation = 'kgqa_demo.dirty_entities'::regclass AND l.mode = 'RowShareLock' AND l.granted
  AND a.application_name LIKE 'kgqa-worker-%'
"""


def settings(root: Path, dsn: str) -> Settings:
    return Settings(db_path=root / "graph.kuzu", graph="postgres", store="pgvector", pg_dsn=dsn, index="demo")


def test_a_worker_killed_mid_refresh_loses_nothing(pg_database, tmp_path, embedder):
    with Workspace.init(settings(tmp_path, pg_database), embedder=embedder) as ws:
        ws.load(demo_graph_path())
        ws.build_index(IndexParams(hub_types=("Paper",)))
    names = ("kgqa-worker-1", "kgqa-worker-2")
    homes = [tmp_path / name for name in names]
    workers = []
    for name, home in zip(names, homes):
        home.mkdir()
        dsn = make_conninfo(pg_database, application_name=name)  # which worker holds the marks
        workers.append(
            Service(
                home / "graph.kuzu",
                *("--graph", "postgres", "--store", "pgvector", "--pg-dsn", dsn, "--index", "demo"),
                wait=False,
                state_at=home / "demo.postgres",
            )
        )
    try:
        for w in workers:
            w.ready()
        with psycopg.connect(pg_database, autocommit=True) as conn:
            papers = [r[0] for r in conn.execute("SELECT id FROM kgqa_demo.entities WHERE 'Paper' = ANY(types)")]
            new = [(f"{p}-new{i}", f"{p} Coauthor{i}") for p in papers for i in range(PER_PAPER)]
            with conn.transaction():  # one writer's transaction: the triggers mark them all
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO kgqa_demo.entities (id, label, types) VALUES (%s, %s, '{Author}')", new
                    )
                    cur.executemany(
                        "INSERT INTO kgqa_demo.triples (subject, predicate, object) VALUES (%s, 'author', %s)",
                        [(a.split("-new")[0], a) for a, _ in new],
                    )
            marked = conn.execute("SELECT count(DISTINCT entity_id) FROM kgqa_demo.dirty_entities").fetchone()[0]
            assert marked == len(new) + len(papers)  # the new authors and the papers they were added to

            deadline = time.monotonic() + 60
            holder = None
            while holder is None:  # a refresh took the marks: find the worker and kill it mid-rebuild
                row = conn.execute(REFRESHING).fetchone()
                holder = row[0] if row else None
                assert time.monotonic() < deadline, "no worker took the marks"
                assert conn.execute("SELECT count(*) FROM kgqa_demo.dirty_entities").fetchone()[0] > 0, (
                    "a refresh finished before it could be killed"
                )
                time.sleep(0.01)
            killed = workers[names.index(holder)]
            killed.proc.send_signal(signal.SIGKILL)
            killed.proc.wait()
            survivor = workers[1 - names.index(holder)]

            deadline = time.monotonic() + 180
            while conn.execute("SELECT count(*) FROM kgqa_demo.dirty_entities").fetchone()[0]:
                assert survivor.proc.poll() is None, survivor.proc.stderr.read()
                assert time.monotonic() < deadline, "the surviving worker did not take the marks"
                time.sleep(0.2)
            while conn.execute(REFRESHING).fetchone():  # the survivor's refresh commits its work with the marks
                time.sleep(0.1)
            indexed = {
                r[0]
                for r in conn.execute(
                    "SELECT DISTINCT t->>3 FROM kgqa_demo.hub_paths, jsonb_array_elements(triples) AS t"
                    " WHERE t->>3 LIKE '%-new%'"  # [sid, slabel, predicate, oid, olabel]
                )
            }
    finally:
        for w in workers:
            if w.proc.poll() is None:
                w.stop()
    log = survivor.proc.stderr.read()
    # the survivor refreshed every marked entity: the killed worker's claim was rolled back, not lost
    refreshed = sum(
        int(line.split("graph refresh: ")[1].split()[0]) for line in log.splitlines() if "graph refresh: " in line
    )
    assert refreshed == marked, log
    assert indexed == {a for a, _ in new}, sorted({a for a, _ in new} - indexed)[:5]  # every inserted fact
    with Workspace(settings(tmp_path, pg_database), embedder=embedder) as ws:
        check = ws.update_index(dry_run=True)  # every hub against the graph, by content hash
        assert check.hubs_checked == len(papers) and check.rebuilt_ids == [] and check.removed_ids == []
        assert ws.index_status().counts.hubs == len(papers)
