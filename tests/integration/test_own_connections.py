"""`kgqa.frontends.duckdb.register` and `kgqa.frontends.kuzu.register` on plain `duckdb` and `kuzu`
connections, in a fresh Python process (real Kùzu, real model): in-process answers equal the library's,
and with a `kgqa serve` running for the database the same answers come from the service."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from serve_helpers import Service, build_demo_db, service_env

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.demo import DEMO_QUESTIONS
from kgqa.errors import StoreBusyError
from kgqa.graph.store import GraphStore

pytestmark = pytest.mark.slow

QUESTION = DEMO_QUESTIONS[2][0]

#: A user's script: plain duckdb and kuzu connections, HubLink added by `register`.
USER_SCRIPT = textwrap.dedent("""
    import json, sys
    import duckdb, kuzu
    from kgqa.frontends import duckdb as kgqa_duckdb, kuzu as kgqa_kuzu

    db, question, read_only = sys.argv[1], sys.argv[2], sys.argv[3] == "ro"
    out = {}
    con = duckdb.connect()
    service = kgqa_duckdb.register(con, db=db)
    out["duck_via"] = service.served_by
    out["duck_answer"] = con.execute("SELECT answer FROM kgqa_ask($1)", [question]).fetchone()[0]
    out["duck_triples"] = [r[1] for r in con.execute("SELECT * FROM kgqa_retrieve($1, 3)", [question]).fetchall()]
    out["duck_hubs"] = [r[1] for r in con.execute("SELECT * FROM kgqa_hubs($1, 3)", [question]).fetchall()]
    service.close()  # the in-process workspace lets go of the database file

    database = kuzu.Database(db, read_only=read_only)
    conn = kuzu.Connection(database)
    service = kgqa_kuzu.register(conn)
    out["kuzu_via"] = service.served_by
    res = conn.execute("RETURN kgqa_answer($q)", {"q": question})
    out["kuzu_answer"] = res.get_next()[0]
    res = conn.execute("UNWIND kgqa_rank_hubs($q, 3) AS h MATCH (p:Entity {id: h.hub_id}) "
                       "RETURN h.rank, p.id ORDER BY h.rank", {"q": question})
    out["kuzu_hubs"] = []
    while res.has_next():
        out["kuzu_hubs"].append(res.get_next()[1])
    res = conn.execute("WITH kgqa_ask($q) AS a RETURN a.answer, size(kgqa_retrieve($q, 3)), "
                       "struct_extract(kgqa_hubs($q, 1)[1], 'hub_id'), kgqa_ask(CAST(NULL AS STRING))", {"q": question})
    out["kuzu_vocabulary"] = res.get_next()
    res = conn.execute("MATCH (e:Entity) RETURN count(e)")  # the user's own queries go on as before
    out["entities"] = res.get_next()[0]
    print(json.dumps(out))
""")


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, embedder) -> Path:
    path = tmp_path_factory.mktemp("own") / "demo.kuzu"
    return build_demo_db(path, embedder)


def run_user_script(db: Path, read_only: bool) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", USER_SCRIPT, str(db), QUESTION, "ro" if read_only else "rw"],
        capture_output=True,
        text=True,
        env=service_env(),
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def expected(db: Path, embedder):
    with Workspace(Settings(db_path=db), read_only=True, embedder=embedder) as ws:
        return ws.ask(QUESTION)


def test_register_on_plain_connections_in_process(demo_db, embedder):
    want = expected(demo_db, embedder)
    got = run_user_script(demo_db, read_only=False)
    assert got["duck_via"] == got["kuzu_via"] == "in-process"
    assert got["duck_answer"] == got["kuzu_answer"] == want.answer
    assert got["duck_triples"] == want.triples[:3]
    assert got["duck_hubs"] == got["kuzu_hubs"] == [h.hub_id for h in want.hubs[:3]]
    assert got["entities"] > 0
    assert got["kuzu_vocabulary"] == [want.answer, 3, want.hubs[0].hub_id, None]  # the shared names; NULL in, NULL out


def test_register_uses_a_running_service(demo_db, embedder):
    want = expected(demo_db, embedder)
    svc = Service(demo_db, "--workers", "1")
    try:
        got = run_user_script(demo_db, read_only=True)  # the service holds the database: open it read-only
    finally:
        assert svc.stop() == 0
    assert got["duck_via"] == got["kuzu_via"] == "service"
    assert got["duck_answer"] == got["kuzu_answer"] == want.answer
    assert got["duck_hubs"] == got["kuzu_hubs"] == [h.hub_id for h in want.hubs[:3]]


def test_database_busy_names_the_holder(demo_db):
    """A writer elsewhere: the error names its pid and command line, not a guess."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import kuzu, sys, time; db = kuzu.Database(sys.argv[1]); print('open', flush=True); time.sleep(120)",
            str(demo_db),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=service_env(),
    )
    try:
        assert holder.stdout.readline().strip() == "open"
        with pytest.raises(StoreBusyError) as err:
            GraphStore(demo_db)
        assert f"process {holder.pid} holds it" in str(err.value) and "kuzu.Database" in str(err.value)
    finally:
        holder.kill()
        holder.wait()
