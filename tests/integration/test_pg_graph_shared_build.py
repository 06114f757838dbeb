"""The shared index build (`kgqa index build --workers 2`) of a graph kept in Postgres (`--graph
postgres`): its worker processes read the graph from Postgres (no Kùzu file anywhere) and build the
index a single process builds. Real Postgres, real model, real processes, as a user would type it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_shared_build import assert_same_index, rows

from kgqa.demo import demo_graph_path

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def kgqa(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("KGQA_PG_DSN", "KGQA_STORE", "KGQA_INDEX", "KGQA_GRAPH")}
    return subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600
    )


def test_two_workers_build_from_the_graph_in_postgres(pg_database, tmp_path):
    for index, workers in (("single", ()), ("shared", ("--workers", "2", "--hubs-per-batch", "8"))):
        pg = ("--graph", "postgres", "--pg-dsn", pg_database, "--index", index)
        loaded = kgqa(tmp_path, "load", str(demo_graph_path()), *pg)
        assert loaded.returncode == 0, loaded.stderr
        built = kgqa(tmp_path, "index", "build", *pg, "--store", "pgvector", "--hub-type", "Paper", *workers)
        assert built.returncode == 0, built.stdout + built.stderr
        assert "35 hubs, 347 paths, 2671 vectors" in built.stdout, built.stdout  # as from Kùzu
    assert_same_index(pg_database, "single", "shared")
    holders = {w.split(":")[1] for (w,) in rows(pg_database, "SELECT leased_by FROM kgqa_shared.build_queue")}
    assert len(holders) == 2  # both worker processes built batches
    assert not [p for p in tmp_path.rglob("*.kuzu*") if not p.name.endswith(".json")]
