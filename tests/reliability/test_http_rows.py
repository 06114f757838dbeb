"""The HTTP rows of the bad-input table (bad_input_rows.HTTP_ROWS) against real `kgqa serve` processes on
free loopback ports, started once for this module on copies of the small indexed base database: {main}
(token required, one worker, no queue), {slow} (KGQA_QUESTION_TIMEOUT of 1 µs) and {noindex} (the graph
without an index). After each row the graph and index are unchanged (counts and content hashes, read
beside the running service) and the service still answers /v1/health. Then: SIGKILL during `serve`
leaves the database intact, the CLI finds the stale state file dead and answers in-process, and a new
`kgqa serve` starts on the same database."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from bad_input_rows import HTTP_ROWS, Q, Row
from conftest import RUNNERS, check
from reliability_state import GRAPH_CSV, State, copy_db, kuzu_state
from serve_helpers import Service, http_request, service_env

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.processes import pid_alive
from kgqa.serve_state import read_state, state_path

pytestmark = pytest.mark.slow

TOKEN = "reliability-token"


@dataclass
class Served:
    """One running service, the database copy it serves and that copy's state before the rows."""

    service: Service
    db: Path
    state: State


@pytest.fixture(scope="module")
def services(base, tmp_path_factory):
    """The three services of the rows, started together (their model loads overlap)."""
    root = tmp_path_factory.mktemp("http-rows")
    noindex = root / "noindex" / "graph.kuzu"
    noindex.parent.mkdir()
    (root / "graph.csv").write_text(GRAPH_CSV, encoding="utf-8")
    with Workspace.init(Settings(db_path=noindex)) as ws:
        ws.load(root / "graph.csv")
    dbs = {"main": copy_db(base.db, root / "main"), "slow": copy_db(base.db, root / "slow"), "noindex": noindex}
    started = {
        "main": Service(dbs["main"], "--workers", "1", "--queue", "0", "--token", TOKEN, wait=False),
        "slow": Service(dbs["slow"], env={"KGQA_QUESTION_TIMEOUT": "0.000001"}, wait=False),
        "noindex": Service(dbs["noindex"], wait=False),
    }
    try:
        served = {name: Served(svc.ready(), dbs[name], kuzu_state(dbs[name])) for name, svc in started.items()}
        yield served
    finally:
        codes = {name: svc.stop() for name, svc in started.items()}
    assert codes == {"main": 0, "slow": 0, "noindex": 0}, codes


def fill(row: Row, services: dict[str, Served]) -> tuple[str, list[str], dict[str, str]]:
    """(service name, args with the service's URL, headers with the token unless the row sets them)."""
    method, url, body = row.args
    name = url[1 : url.index("}")]
    headers = {"Authorization": f"Bearer {TOKEN}", **row.env} if name == "main" else dict(row.env)
    return name, [method, services[name].service.url + url[url.index("}") + 1 :], body], headers


@pytest.mark.parametrize("row", HTTP_ROWS, ids=lambda row: row.id)
def test_http_bad_input_changes_nothing(row: Row, services):
    name, args, headers = fill(row, services)
    code, output = RUNNERS[row.via](args, headers)
    check(row, code, output)
    reply = json.loads(output.splitlines()[-1])
    assert set(reply) == {"error"} and reply["error"]["message"] and reply["error"]["type"], reply
    served = services[name]
    assert kuzu_state(served.db) == served.state, f"{row.id} changed the database"
    status, health, _ = served.service.request("GET", "/v1/health")
    assert status == 200 and health["status"] == "ok" and health["in_flight"] == 0, health


def test_every_endpoint_has_rows(services):
    status, schema, _ = services["main"].service.request("GET", "/openapi.json")
    assert status == 200
    endpoints = {f"{m.upper()} {p}" for p, ops in schema["paths"].items() for m in ops} | {"GET /openapi.json"}
    paths_with_rows = {row.command.split()[1] for row in HTTP_ROWS}
    assert {e.split()[1] for e in endpoints} <= paths_with_rows, endpoints
    assert {"POST /v1/ask", "POST /v1/retrieve", "GET /v1/stats"} <= {row.command for row in HTTP_ROWS}
    assert len({row.id for row in HTTP_ROWS}) == len(HTTP_ROWS) >= 60


def test_the_services_still_answer_after_the_rows(services):
    status, reply, _ = services["main"].service.request(
        "POST", "/v1/ask", {"question": Q, "topic_entity": "V1"}, token=TOKEN
    )
    assert status == 200 and reply["triples"], reply
    status, stats, _ = services["main"].service.request("GET", "/v1/stats", token=TOKEN)
    assert status == 200 and stats["errors_by_status"].get("422", 0) >= 30, stats


def test_sigkill_while_answering_leaves_the_database_intact(base, tmp_path):
    db = copy_db(base.db, tmp_path / "db")
    svc = Service(db, "--workers", "1", "--queue", "8")
    body = json.dumps({"question": Q, "strategy": "direct", "hubs": 1000, "paths_per_hub": 1000}).encode()
    replies: list[object] = []

    def ask() -> None:
        try:
            replies.append(http_request("POST", svc.url + "/v1/ask", body, {})[0])
        except OSError as exc:  # the connection dies with the process
            replies.append(type(exc).__name__)

    clients = [threading.Thread(target=ask) for _ in range(6)]
    for t in clients:
        t.start()
    for _ in range(2000):  # kill while requests are admitted (running or queued)
        if svc.request("GET", "/v1/health")[1]["in_flight"] > 0:
            break
    svc.proc.send_signal(signal.SIGKILL)
    assert svc.proc.wait(timeout=30) == -signal.SIGKILL
    for t in clients:
        t.join(timeout=60)
    assert any(not isinstance(r, int) for r in replies), replies  # it was answering when it died
    stale = read_state(db)
    assert stale is not None and stale.pid == svc.proc.pid and not pid_alive(stale.pid)  # the file stays
    assert kuzu_state(db) == base.state
    out = subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", "--db", str(db), "ask", Q, "--topic-entity", "V1", "--json"],
        capture_output=True,
        text=True,
        env=service_env(),
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["served_by"] == "in-process" and json.loads(out.stdout)["triples"]
    again = Service(db)
    try:
        assert again.state.pid == again.proc.pid and read_state(db).pid == again.proc.pid
        status, reply, _ = again.request("POST", "/v1/ask", {"question": Q, "topic_entity": "V1"})
        assert status == 200 and reply["served_by"] == "service" and reply["triples"]
    finally:
        assert again.stop() == 0
    assert not state_path(db).exists() and kuzu_state(db) == base.state
