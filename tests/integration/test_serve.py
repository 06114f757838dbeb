"""`kgqa serve` as a real process on a free loopback port, over a real Kùzu demo index and the real model:
HTTP answers equal the in-process ones, the CLI is its client, errors get their status codes, the queue
refuses with 503, the token is required, and SIGTERM drains the requests in flight and exits 0."""

from __future__ import annotations

import json
import re
import shutil
import signal
import threading
from pathlib import Path

import pytest
from serve_helpers import Service, build_demo_db, kgqa

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.demo import demo_graph_path
from kgqa.serve_state import state_path, token_hint

pytestmark = pytest.mark.slow

TOKEN = "s3cret-test-token"
QUESTION = "Which papers use a controlled experiment as evaluation method?"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, embedder) -> Path:
    """The demo graph with its index, built once for this module and closed (the services open it)."""
    return build_demo_db(tmp_path_factory.mktemp("serve") / "demo.kuzu", embedder)


@pytest.fixture(scope="module")
def service(demo_db):
    """One worker, no queue (so a burst gets 503s), token required."""
    svc = Service(demo_db, "--workers", "1", "--queue", "0", "--token", TOKEN)
    yield svc
    assert svc.stop() == 0


def test_state_file_and_health(service, demo_db):
    state = json.loads(state_path(demo_db).read_text())
    assert state["pid"] == service.proc.pid and state["host"] == "127.0.0.1" and state["port"] > 0
    assert state["db_path"] == str(demo_db.resolve()) and state["token_required"] is True
    assert TOKEN not in json.dumps(state) and state["token_hint"] == token_hint(TOKEN)
    status, body, _ = service.request("GET", "/v1/health")  # open without the token
    assert status == 200 and body["status"] == "ok" and body["index"] is True and body["pid"] == service.proc.pid


def test_token_is_required(service):
    for token in (None, "wrong"):
        status, body, headers = service.request("POST", "/v1/ask", {"question": QUESTION}, token=token)
        assert status == 401 and "Bearer" in body["error"]["message"] and headers["www-authenticate"] == "Bearer"
        assert service.request("GET", "/v1/stats", token=token)[0] == 401


def test_ask_over_http_and_through_the_cli_equal_in_process(service, demo_db):
    status, served, _ = service.request("POST", "/v1/ask", {"question": QUESTION, "hubs": 5}, token=TOKEN)
    assert status == 200 and served["served_by"] == "service"
    assert served["sources"] and served["triples"] and "[1]" in served["answer"]

    local = kgqa(demo_db, "ask", QUESTION, "--hubs", "5", "--json", "--no-server")
    client = kgqa(demo_db, "ask", QUESTION, "--hubs", "5", "--json", KGQA_SERVE_TOKEN=TOKEN)
    assert local.returncode == 0 and client.returncode == 0, local.stderr + client.stderr
    local_json, client_json = json.loads(local.stdout), json.loads(client.stdout)
    assert local_json["served_by"] == "in-process" and client_json["served_by"] == "service"
    assert list(local_json) == list(served) == list(client_json)  # the same fields, in the same order

    def same(d: dict) -> dict:
        return {k: v for k, v in d.items() if k not in ("timings", "served_by")}

    assert same(served) == same(local_json) == same(client_json)

    text_local = kgqa(demo_db, "ask", QUESTION, "--hubs", "5", "--no-server").stdout.splitlines()
    text_client = kgqa(demo_db, "ask", QUESTION, "--hubs", "5", KGQA_SERVE_TOKEN=TOKEN).stdout.splitlines()

    def without_seconds(lines: list[str]) -> list[str]:
        return [re.sub(r", [0-9.]+s, ", ", ", line) if line.startswith("[") else line for line in lines]

    assert without_seconds(text_local) == without_seconds(text_client) and "Sources:" in text_client


def test_sql_session_asks_the_service(service, demo_db):
    before = service.request("GET", "/v1/stats", token=TOKEN)[1]["by_endpoint"].get("ask", 0)
    status, served, _ = service.request("POST", "/v1/ask", {"question": QUESTION, "max_triples": 3}, token=TOKEN)
    assert status == 200 and len(served["triples"]) <= 3
    out = kgqa(
        demo_db, "sql", "--format", "json", "-c", f"SELECT answer FROM kgqa_ask('{QUESTION}')", KGQA_SERVE_TOKEN=TOKEN
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)[0]["answer"] == served["answer"]
    after = service.request("GET", "/v1/stats", token=TOKEN)[1]["by_endpoint"]["ask"]
    assert after == before + 2  # the HTTP question and the SQL session's


def test_cli_without_the_token_answers_in_process(service, demo_db):
    out = kgqa(demo_db, "ask", QUESTION, "--hubs", "5", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["served_by"] == "in-process"
    assert "KGQA_SERVE_TOKEN" in out.stderr and "answering in-process" in out.stderr


def test_retrieve_returns_triples_and_hubs(service):
    status, body, _ = service.request("POST", "/v1/retrieve", {"question": QUESTION, "hubs": 5}, token=TOKEN)
    assert status == 200 and set(body) == {"question", "triples", "hubs", "served_by"}
    assert body["triples"] and body["hubs"][0]["hub_id"].startswith("P")


@pytest.mark.parametrize(
    "body, field",
    [
        ({"question": QUESTION, "hubs": 0}, "hubs"),
        ({"question": QUESTION, "strategy": "sideways"}, "strategy"),
        ({"question": QUESTION, "diversity_penalty": 2}, "diversity_penalty"),
        ({"question": QUESTION, "retriever": "nope"}, "retriever"),
        ({"question": ""}, "question"),
        ({"hubs": 3}, "question"),
        ({"question": QUESTION, "hubz": 3}, "hubz"),
    ],
)
def test_bad_fields_get_422_naming_them(service, body, field):
    status, reply, _ = service.request("POST", "/v1/ask", body, token=TOKEN)
    assert status == 422 and reply["error"]["field"] == field and field in reply["error"]["message"]


def test_malformed_json_is_422(service):
    status, reply, _ = service.request("POST", "/v1/ask", raw=b"{not json", token=TOKEN)
    assert status == 422 and reply["error"]["type"] == "ValidationError"


def test_unknown_entity_is_404_over_http_and_exit_6_in_the_cli(service, demo_db):
    status, reply, _ = service.request(
        "POST", "/v1/ask", {"question": QUESTION, "topic_entity": "NO_SUCH_ENTITY"}, token=TOKEN
    )
    assert status == 404 and reply["error"] == {
        "type": "EntityNotFoundError",
        "field": "topic_entity",
        "message": "no entity with id or label 'NO_SUCH_ENTITY'",
    }
    out = kgqa(demo_db, "ask", QUESTION, "--topic-entity", "NO_SUCH_ENTITY", KGQA_SERVE_TOKEN=TOKEN)
    assert out.returncode == 6 and "no entity with id or label 'NO_SUCH_ENTITY'" in out.stderr
    assert "in-process" not in out.stderr


def test_full_queue_gets_503_with_retry_after(service):
    body = {"question": QUESTION, "strategy": "direct", "hubs": 30, "paths_per_hub": 20}
    results: list[tuple[int, dict, dict]] = []
    threads = [
        threading.Thread(target=lambda: results.append(service.request("POST", "/v1/ask", body, TOKEN)))
        for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r[0] for r in results)
    assert set(codes) <= {200, 503} and 200 in codes and 503 in codes, codes
    busy = next(r for r in results if r[0] == 503)
    assert busy[2]["retry-after"] == "1" and busy[1]["error"]["type"] == "Busy"
    assert service.request("GET", "/v1/health")[1]["in_flight"] == 0


def test_stats_and_openapi(service):
    status, stats, _ = service.request("GET", "/v1/stats", token=TOKEN)
    assert (
        status == 200
        and stats["model"] == "all-MiniLM-L6-v2"
        and stats["embedder"] in ("onnx-fp32", "torch-fp32")
        and stats["index"]["hubs"] == 35
    )
    assert stats["questions_answered"] >= 2 and stats["latency_ms"]["p50"] > 0
    assert stats["latency_ms"]["p50"] <= stats["latency_ms"]["p95"] <= stats["latency_ms"]["p99"]
    assert stats["errors_by_status"]["401"] >= 2 and stats["uptime_s"] > 0
    status, schema, _ = service.request("GET", "/openapi.json")
    assert status == 200 and {"/v1/ask", "/v1/retrieve", "/v1/health", "/v1/stats"} <= set(schema["paths"])
    fields = schema["components"]["schemas"]["AskRequest"]["properties"]
    assert {
        "question",
        "strategy",
        "topic_entity",
        "hubs",
        "paths_per_hub",
        "diversity_penalty",
        "alpha",
        "max_level",
        "components",
        "triple_filter",
        "scoring",
        "llm",
        "token_budget",
        "retriever",
        "params",
        "max_triples",
        "uniform_hops",
    } == set(fields)


def test_no_index_is_409(tmp_path):
    db = tmp_path / "noindex.kuzu"
    with Workspace.init(Settings(db_path=db)) as ws:
        ws.load(demo_graph_path())
    svc = Service(db)
    try:
        assert svc.request("GET", "/v1/health")[1]["index"] is False
        status, reply, _ = svc.request("POST", "/v1/ask", {"question": QUESTION})
        assert (
            status == 409
            and reply["error"]["type"] == "IndexMissingError"
            and "index build" in reply["error"]["message"]
        )
        out = kgqa(db, "ask", QUESTION)  # through the service: the same error and exit code as in-process
        assert out.returncode == 5 and "index build" in out.stderr
    finally:
        assert svc.stop() == 0
    assert not state_path(db).exists()


def test_sigterm_drains_in_flight_requests_and_exits_0(demo_db, tmp_path):
    db = tmp_path / "copy.kuzu"  # a second service needs its own database (one service per database)
    for src in demo_db.parent.glob(demo_db.name + "*"):
        if not src.name.endswith(".serve.json"):
            shutil.copy(src, tmp_path / src.name.replace(demo_db.name, db.name))
    svc = Service(db, "--workers", "1", "--queue", "8")
    body = {"question": QUESTION, "strategy": "direct", "hubs": 30, "paths_per_hub": 20}
    results: list[int] = []
    first = threading.Event()

    def ask() -> None:
        results.append(svc.request("POST", "/v1/ask", body)[0])
        first.set()

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    assert first.wait(120)
    svc.proc.send_signal(signal.SIGTERM)  # three requests are still queued or running
    for t in threads:
        t.join()
    assert svc.proc.wait(timeout=60) == 0
    assert results == [200, 200, 200, 200]
    assert not state_path(db).exists()
