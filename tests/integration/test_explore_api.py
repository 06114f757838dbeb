"""The explore endpoints of `kgqa serve` as a real process over the demo graph: neighbour pages, search,
paths, schema, the joined evidence graph, the favicon, bad parameters (4xx naming the field) and the caps
in OpenAPI; and the same endpoints answering alike when the index is in Postgres + pgvector."""

from __future__ import annotations

import urllib.request
from urllib.parse import urlencode

import pytest
from serve_helpers import Service, build_demo_db

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.graph import explore

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def service(tmp_path_factory, embedder):
    svc = Service(build_demo_db(tmp_path_factory.mktemp("explore") / "demo.kuzu", embedder))
    yield svc
    assert svc.stop() == 0


def get(svc: Service, path: str, **params: object) -> tuple[int, dict]:
    status, body, _ = svc.request("GET", path + ("?" + urlencode(params) if params else ""))
    return status, body


def test_neighbours_page_through_a_venue(service):
    status, first = get(service, "/v1/entities/V01/neighbours", predicate="venue", direction="in", limit=4)
    assert status == 200 and first["total"] == 10 and first["more"] and len(first["neighbours"]) == 4
    assert first["counts"] == [{"direction": "in", "predicate": "venue", "count": 10}]
    n = first["neighbours"][0]
    assert n["direction"] == "in" and n["target"] == "V01" and n["source"] == n["node"]["id"]
    seen = {x["node"]["id"] for x in first["neighbours"]}
    offset = 4
    while True:
        _, page = get(service, "/v1/entities/V01/neighbours", direction="in", offset=offset, limit=4)
        seen |= {x["node"]["id"] for x in page["neighbours"]}
        offset += len(page["neighbours"])
        if not page["more"]:
            break
    assert len(seen) == 10 and all(s.startswith("P") for s in seen)


def test_search_paths_and_schema(service):
    status, found = get(service, "/v1/search", q="2019", limit=3)
    assert status == 200 and found[0]["label"] == "2019" and found[0]["literal"] is True
    _, venues = get(service, "/v1/search", type="Venue", limit=20)
    assert {v["id"] for v in venues} == {"V01", "V02", "V03", "V04", "V05"}

    status, paths = get(service, "/v1/paths", source="P01", target="P02", max_depth=3)
    assert status == 200 and paths["depth"] == 2 and paths["paths"]
    for path in paths["paths"]:
        ends = [{t["source"], t["target"]} for t in path]
        assert "P01" in ends[0] and "P02" in ends[-1] and ends[0] & ends[1]
        assert all(t["triple"].startswith("(") for t in path)

    status, schema = get(service, "/v1/schema", limit=3)
    assert status == 200 and len(schema["types"]) == 3 and len(schema["predicates"]) == 3
    assert schema["predicates"][0] == {"predicate": "author", "count": 96}
    status, triples = get(service, "/v1/schema/triples", predicate="venue", limit=2)
    assert status == 200 and [t["predicate"] for t in triples] == ["venue", "venue"]


@pytest.mark.parametrize(
    ("path", "params", "status", "field"),
    [
        ("/v1/entities/V01/neighbours", {"limit": 0}, 422, "limit"),
        ("/v1/entities/V01/neighbours", {"limit": explore.MAX_PAGE + 1}, 422, "limit"),
        ("/v1/entities/V01/neighbours", {"offset": -1}, 422, "offset"),
        ("/v1/entities/V01/neighbours", {"direction": "sideways"}, 422, "direction"),
        ("/v1/entities/NOPE/neighbours", {}, 404, "id"),
        ("/v1/paths", {"source": "P01"}, 422, "target"),
        ("/v1/paths", {"source": "P01", "target": "P02", "max_depth": explore.MAX_PATH_DEPTH + 1}, 422, "max_depth"),
        ("/v1/paths", {"source": "P01", "target": "P02", "max_depth": "deep"}, 422, "max_depth"),
        ("/v1/paths", {"source": "NOPE", "target": "P02"}, 404, "source"),
        ("/v1/schema", {"limit": explore.MAX_SCHEMA_ROWS + 1}, 422, "limit"),
        ("/v1/search", {}, 422, "q"),
        ("/v1/schema/triples", {}, 422, "predicate"),
    ],
)
def test_bad_parameters_get_4xx_naming_the_field(service, path, params, status, field):
    got, body = get(service, path, **params)
    assert got == status and body["error"]["field"] == field, body


def test_openapi_documents_the_endpoints_and_their_caps(service):
    _, spec = get(service, "/openapi.json")
    for path in ("/v1/entities/{entity_id}/neighbours", "/v1/paths", "/v1/schema", "/v1/search"):
        assert "get" in spec["paths"][path]
    params = {p["name"]: p["schema"] for p in spec["paths"]["/v1/paths"]["get"]["parameters"]}
    assert params["max_depth"]["maximum"] == explore.MAX_PATH_DEPTH
    limit = {p["name"]: p["schema"] for p in spec["paths"]["/v1/entities/{entity_id}/neighbours"]["get"]["parameters"]}
    assert limit["limit"]["maximum"] == explore.MAX_PAGE


def test_evidence_is_joined_by_shared_entities_and_the_topic(service):
    _, p01 = get(service, "/v1/entities/P01")
    _, p02 = get(service, "/v1/entities/P02")
    title = [t["triple"] for t in p01["out"] + p02["out"] if t["predicate"] == "doi"]
    status, plain, _ = service.request("POST", "/v1/evidence", {"triples": title})
    assert status == 200 and {e["kind"] for e in plain["edges"]} == {"evidence"} and len(plain["edges"]) == 2
    status, joined, _ = service.request(
        "POST", "/v1/evidence", {"triples": title, "hubs": ["P01", "P02"], "topic": "A01"}
    )
    kinds = {(e["source"], e["target"]): e["kind"] for e in joined["edges"]}
    assert kinds[("P01", "V01")] == kinds[("P02", "V01")] == "bridge"  # the shared venue joins them
    assert "path" in kinds.values() and "A01" in {n["id"] for n in joined["nodes"]}


def test_favicon_is_served(service):
    with urllib.request.urlopen(service.url + "/favicon.ico", timeout=30) as resp:
        assert resp.status == 200 and resp.headers["content-type"].startswith("image/svg+xml")
        assert b"<svg" in resp.read()


@pytest.mark.postgres
def test_the_same_api_with_the_index_in_pgvector(service, pg_database, tmp_path, embedder):
    """With the HubLink index in Postgres the graph is still read from Kùzu: the replies are the same."""
    db = tmp_path / "pg.kuzu"
    settings = Settings(db_path=db, store="pgvector", pg_dsn=pg_database)
    with Workspace.init(settings, embedder=embedder) as ws:
        ws.load(demo_graph_path())
        ws.build_index(IndexParams(hub_types=("Paper",)))
    pg = Service(db, env={"KGQA_STORE": "pgvector", "KGQA_PG_DSN": pg_database})
    try:
        _, health = get(pg, "/v1/health")
        assert health["store"] == "pgvector"
        queries = [
            ("/v1/entities/V01/neighbours", {"direction": "in", "offset": 3, "limit": 4}),
            ("/v1/paths", {"source": "A01", "target": "A05", "max_depth": 5}),
            ("/v1/schema", {}),
            ("/v1/search", {"q": "ICSA"}),
        ]
        for path, params in queries:
            assert get(pg, path, **params) == get(service, path, **params)
    finally:
        assert pg.stop() == 0


@pytest.mark.postgres
def test_the_same_api_with_the_graph_in_postgres(service, pg_database, tmp_path, embedder):
    """With the graph itself in Postgres (`--graph postgres`, no Kùzu file) the explorer runs the SQL
    twins of its queries: every reply equals the Kùzu graph's, order included; `graph describe` says
    where the graph is."""
    import subprocess
    import sys

    from serve_helpers import service_env

    db = tmp_path / "pggraph.kuzu"  # never created: it only names the index (pggraph)
    settings = Settings(db_path=db, graph="postgres", store="pgvector", pg_dsn=pg_database)
    with Workspace.init(settings, embedder=embedder) as ws:
        ws.load(demo_graph_path())
        ws.build_index(IndexParams(hub_types=("Paper",)))
    env = {"KGQA_PG_DSN": pg_database}
    pg = Service(db, "--graph", "postgres", env=env, state_at=tmp_path / "pggraph.postgres")
    try:
        _, health = get(pg, "/v1/health")
        assert health["store"] == "pgvector"
        queries = [
            ("/v1/entities/V01/neighbours", {"direction": "in", "offset": 3, "limit": 4}),
            ("/v1/entities/P01/neighbours", {}),
            ("/v1/entities/A01/neighbours", {"predicate": "author", "direction": "both"}),
            ("/v1/paths", {"source": "A01", "target": "A05", "max_depth": 5}),
            ("/v1/paths", {"source": "P01", "target": "P02", "max_depth": 3}),
            ("/v1/schema", {}),
            ("/v1/schema", {"limit": 3}),
            ("/v1/schema/triples", {"predicate": "author", "offset": 2, "limit": 5}),
            ("/v1/search", {"q": "ICSA"}),
            ("/v1/search", {"q": "2019", "limit": 3}),
            ("/v1/search", {"type": "Venue", "limit": 20}),
            ("/v1/entities/P99/neighbours", {}),
        ]
        for path, params in queries:
            assert get(pg, path, **params) == get(service, path, **params), (path, params)
    finally:
        assert pg.stop() == 0
    assert not list(tmp_path.rglob("*.kuzu*"))
    described = subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", "--db", str(db), "graph", "describe", "--graph", "postgres"],
        capture_output=True,
        text=True,
        env=service_env(**env),
        timeout=300,
    )
    assert described.returncode == 0, described.stderr
    assert described.stdout.startswith("layout: the graph in Postgres, HubLink's tables kgqa_pggraph.entities")
    assert "446 triples" in described.stdout, described.stdout


def test_the_api_on_a_users_own_property_graph(tmp_path, embedder):
    """The explore endpoints on the user's own node and rel tables: answers through the layout, and a
    4xx naming the field (never a 500 with Kùzu's binder text) for a search by type alone."""
    from test_own_graph import make_graph

    db = tmp_path / "my.kuzu"
    make_graph(db)
    with Workspace(Settings(db_path=db), embedder=embedder) as ws:
        ws.build_index(IndexParams(hub_types=("Paper",)))
    svc = Service(db)
    try:
        status, page = get(svc, "/v1/entities/v1/neighbours", direction="in")
        assert (
            status == 200 and page["total"] == 3 and {n["node"]["id"] for n in page["neighbours"]} == {"p1", "p2", "p3"}
        )
        status, found = get(svc, "/v1/search", q="hoffmeier")
        assert status == 200 and [e["id"] for e in found] == ["a1"]
        status, paths = get(svc, "/v1/paths", source="p1", target="p3", max_depth=2)
        assert status == 200 and paths["depth"] == 2  # through the shared author (or the shared venue)
        status, schema = get(svc, "/v1/schema")
        assert status == 200 and {"predicate": "author", "count": 5} in schema["predicates"]
        status, body = get(svc, "/v1/schema/triples", predicate="author", limit=2)  # WROTE read backwards
        assert status == 200 and [(t["source"], t["target"]) for t in body] == [("p1", "a1"), ("p1", "a2")], body
        status, body = get(svc, "/v1/search", type="Paper")
        assert status == 422 and body["error"]["field"] == "q" and "Binder" not in str(body), body
        status, body = get(svc, "/v1/entities/p9/neighbours")
        assert status == 404, body
    finally:
        assert svc.stop() == 0
