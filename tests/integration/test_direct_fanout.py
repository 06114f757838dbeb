"""The direct strategy's bounded expansion of ANN hits to hubs (issue 18.4), on a real Kùzu index
built with the real model (and the same store query on pgvector): a text shared by many hubs (a
venue, a predicate) is counted, not expanded beyond `text_hub_limit`, and the hub named by a specific
text (a title) is still found."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.graph.loaders.delimited import COLUMNS
from kgqa.retrieval.fanout import TextHubs, rank_hubs

VENUE = "International Conference on Software Architecture (ICSA)"
TOPICS = [
    "microservice boundaries",
    "event sourcing",
    "energy-aware deployment",
    "technical debt",
    "architecture erosion",
    "serverless cold starts",
    "API versioning",
    "self-adaptive systems",
    "digital twins",
    "blockchain oracles",
    "quantum software",
    "edge offloading",
    "model-driven testing",
    "feature toggles",
    "log anomaly detection",
    "container orchestration",
    "data mesh governance",
    "safety cases",
    "robotics middleware",
    "green AI pipelines",
    "privacy by design",
    "chaos engineering",
    "legacy modernisation",
    "continuous architecture",
    "smart contracts",
    "fog computing",
    "requirements traceability",
    "code review bots",
    "infrastructure as code",
    "game engines",
    "automotive software",
    "medical device software",
    "open source sustainability",
    "mobile energy",
    "web accessibility",
    "compiler testing",
    "scientific workflows",
    "digital sovereignty",
    "recommender fairness",
    "satellite software",
]
PAPERS = len(TOPICS)
TARGET = 17  # the paper asked about
LIMIT = 5


def title(i: int) -> str:
    return f"A Study of {TOPICS[i].title()}"


def write_graph(path: Path) -> None:
    """40 papers, each with its own title, year and author, all at one venue."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(COLUMNS)
        for i in range(PAPERS):
            pid = f"P{i:02d}"
            out.writerow([pid, "venue", "V1", title(i), "Paper", VENUE, "Venue", "false"])
            out.writerow([pid, "publication year", str(2000 + i), title(i), "Paper", "", "", "true"])
            out.writerow([pid, "author", f"A{i:02d}", title(i), "Paper", f"Author Number {i}", "Author", "false"])


@pytest.fixture(scope="module")
def venue_db(tmp_path_factory, embedder) -> Path:
    root = tmp_path_factory.mktemp("fanout")
    write_graph(root / "graph.csv")
    db = root / "venue.kuzu"
    with Workspace.init(Settings(db_path=db), embedder=embedder) as ws:
        ws.load(root / "graph.csv")
        assert ws.build_index(IndexParams(hub_types=("Paper",))).hubs_rebuilt == PAPERS
    return db


class RecordingStore:
    """The real vector store, with the (fan-out, hubs) its `text_hubs` returned recorded."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.rows: list[tuple[int, list[str]]] = []

    def text_hubs(self, text_hashes: list[str], limit: int) -> dict[str, tuple[int, list[str]]]:
        found = self.inner.text_hubs(text_hashes, limit)
        self.rows.extend(found.values())
        return found


def venue_hash(ws: Workspace) -> str:
    [(text_hash, text, _)] = ws.vstore.nearest_texts(ws.embedder.embed([VENUE])[0], 1)
    assert text == VENUE
    return text_hash


def test_store_counts_a_shared_text_and_returns_at_most_the_limit(venue_db, embedder):
    with Workspace(Settings(db_path=venue_db), read_only=True, embedder=embedder) as ws:
        shared = venue_hash(ws)
        fanout, hubs = ws.vstore.text_hubs([shared], LIMIT)[shared]
        assert fanout == PAPERS
        assert hubs == [f"P{i:02d}" for i in range(LIMIT)]  # the first by id
        assert ws.vstore.text_hubs([shared], 1000)[shared] == (PAPERS, [f"P{i:02d}" for i in range(PAPERS)])
        assert ws.vstore.text_hubs(["no-such-text"], LIMIT) == {}


@pytest.mark.parametrize("limit", [LIMIT, 1000])
def test_direct_strategy_finds_the_titled_paper_with_the_venue_unexpanded(venue_db, embedder, limit):
    with Workspace(Settings(db_path=venue_db), read_only=True, embedder=embedder) as ws:
        recording = RecordingStore(ws.vstore)
        ws.facts.text_hubs.vstore = recording  # type: ignore[assignment]
        answer = ws.ask(
            f"In which venue was '{title(TARGET)}' published?",
            # HubLink's direct retrieval is what is checked here, not a relation chain's answer
            RetrievalParams(strategy="direct", hubs_to_keep=2, extra={"text_hub_limit": limit, "chains": 0}),
        )
    expected = f"(P{TARGET}:{title(TARGET)}, venue, V1:{VENUE})"
    assert expected in answer.triples, answer.triples
    assert answer.hubs[0].hub_id == f"P{TARGET}"
    shared = [hubs for fanout, hubs in recording.rows if fanout == PAPERS]
    assert shared, "the venue (or the predicate) shared by every paper was among the hits"
    assert max(len(hubs) for _, hubs in recording.rows) == min(limit, PAPERS)


def test_ranking_floors_shared_texts_and_fills_the_budget_from_them():
    hits = {"title": [0.9, 0.2], "venue": [0.3, 0.8], "author": [0.1, 0.5]}
    text_hubs = {
        "title": TextHubs(1, ("P2",)),
        "venue": TextHubs(40, ("P0", "P1", "P2")),
        "author": TextHubs(2, ("P5", "P6")),
    }
    # the venue is shared (40 > 3): not expanded, but its 0.8 counts for every candidate on query 1
    assert rank_hubs(hits, text_hubs, limit=3, budget=3) == ["P2", "P5", "P6"]
    # fewer candidates than the budget: the shared text's first hubs fill it
    assert rank_hubs(hits, text_hubs, limit=3, budget=5) == ["P2", "P5", "P6", "P0", "P1"]
    # within the limit, the venue is expanded like any text
    assert rank_hubs(hits, text_hubs, limit=40, budget=3) == ["P2", "P0", "P1"]


def test_pgvector_store_bounds_the_expansion_the_same_way(venue_db, pg_database, embedder):
    with Workspace(Settings(db_path=venue_db, store="pgvector", pg_dsn=pg_database), embedder=embedder) as ws:
        assert ws.build_index(IndexParams(hub_types=("Paper",))).hubs_rebuilt == PAPERS
        shared = venue_hash(ws)
        assert ws.vstore.text_hubs([shared], LIMIT)[shared] == (PAPERS, [f"P{i:02d}" for i in range(LIMIT)])
        answer = ws.ask(
            f"In which venue was '{title(TARGET)}' published?",
            RetrievalParams(strategy="direct", hubs_to_keep=2, extra={"text_hub_limit": LIMIT}),
        )
    assert f"(P{TARGET}:{title(TARGET)}, venue, V1:{VENUE})" in answer.triples
