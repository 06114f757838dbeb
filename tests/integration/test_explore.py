"""The explore reads (kgqa/graph/explore.py) on the real demo graph in Kùzu: neighbour pages and their
counts, search over resources and literals, shortest paths (checked against a plain BFS), the schema,
and the bridges and topic paths that join an answer's evidence."""

from __future__ import annotations

from collections import defaultdict, deque

import pytest

from kgqa.errors import EntityNotFoundError, InputError
from kgqa.graph import explore
from kgqa.graph.reader import in_edges, out_edges


@pytest.fixture(scope="module")
def store(demo_workspace):
    return demo_workspace.store


def test_neighbour_pages_cover_every_neighbour_once(store):
    expected = {(t.predicate, "out", t.object.id) for t in out_edges(store, ["P01"])}
    expected |= {(t.predicate, "in", t.subject.id) for t in in_edges(store, ["P01"])}
    seen, offset = [], 0
    while True:
        page = explore.neighbours(store, "P01", offset=offset, limit=3)
        assert page.total == len(expected) and len(page.neighbours) <= 3
        seen += [(n.predicate, n.direction, n.node.id) for n in page.neighbours]
        offset += len(page.neighbours)
        if not page.more:
            break
    assert len(seen) == len(expected) and set(seen) == expected
    counts = {(d, p): n for d, p, n in page.counts}
    assert counts[("out", "author")] == 3 and counts[("out", "venue")] == 1


def test_a_venue_pages_its_papers_by_predicate_and_direction(store):
    first = explore.neighbours(store, "V01", predicate="venue", direction="in", limit=4)
    assert first.total == 10 and first.more and all(n.direction == "in" for n in first.neighbours)
    rest = explore.neighbours(store, "V01", predicate="venue", direction="in", offset=8, limit=4)
    assert len(rest.neighbours) == 2 and not rest.more
    assert {n.node.id for n in first.neighbours}.isdisjoint({n.node.id for n in rest.neighbours})
    assert all(n.node.types == ("Paper",) for n in first.neighbours + rest.neighbours)
    assert explore.neighbours(store, "V01", direction="out").total == 0


def test_neighbours_refuse_bad_parameters(store):
    with pytest.raises(EntityNotFoundError) as missing:
        explore.neighbours(store, "NOPE")
    assert missing.value.field == "id"
    for kwargs, field in (
        ({"limit": 0}, "limit"),
        ({"limit": explore.MAX_PAGE + 1}, "limit"),
        ({"offset": -1}, "offset"),
    ):
        with pytest.raises(InputError) as bad:
            explore.neighbours(store, "P01", **kwargs)
        assert bad.value.field == field


def test_search_finds_literals_and_filters_by_type(store):
    found = explore.search_entities(store, "2019")
    assert found[0].label == "2019" and found[0].is_literal  # the exact match first, a literal
    venues = explore.search_entities(store, type_="Venue", limit=50)
    assert len(venues) == 5 and all("Venue" in v.types for v in venues)
    assert [e.id for e in explore.search_entities(store, "ICSA", type_="Venue")] == ["V01"]
    assert explore.search_entities(store, "ICSA", type_="Paper") == []
    with pytest.raises(InputError):
        explore.search_entities(store, "")


def _bfs_distance(store, source: str, target: str) -> int | None:
    adj: dict[str, set[str]] = defaultdict(set)
    frontier, dist = deque([source]), {source: 0}
    while frontier:
        here = frontier.popleft()
        if here == target:
            return dist[here]
        if here not in adj:
            for t in out_edges(store, [here]) + in_edges(store, [here]):
                adj[here].add(t.object.id if t.subject.id == here else t.subject.id)
        for nxt in adj[here]:
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                frontier.append(nxt)
    return None


@pytest.mark.parametrize(("source", "target"), [("P01", "V01"), ("A01", "A05"), ("P01", "P02"), ("V01", "RP01")])
def test_shortest_paths_are_shortest_and_connected(store, source, target):
    found = explore.shortest_paths(store, source, target, max_depth=6)
    assert found.depth == _bfs_distance(store, source, target) and found.paths
    for path in found.paths:
        assert len(path) == found.depth
        at = source
        for t in path:  # consecutive triples share an entity, in either direction
            assert at in (t.subject.id, t.object.id)
            at = t.object.id if t.subject.id == at else t.subject.id
        assert at == target
    assert len({tuple(t.canonical for t in p) for p in found.paths}) == len(found.paths)


def test_paths_respect_the_depth_limit_and_refuse_bad_parameters(store):
    deep = explore.shortest_paths(store, "A01", "A05", max_depth=6)
    assert deep.depth is not None and deep.depth > 1
    short = explore.shortest_paths(store, "A01", "A05", max_depth=deep.depth - 1)
    assert short.depth is None and short.paths == []
    assert explore.shortest_paths(store, "P01", "P01").paths == [[]]
    with pytest.raises(EntityNotFoundError) as missing:
        explore.shortest_paths(store, "P01", "NOPE")
    assert missing.value.field == "target"
    with pytest.raises(InputError) as bad:
        explore.shortest_paths(store, "P01", "P02", max_depth=explore.MAX_PATH_DEPTH + 1)
    assert bad.value.field == "max_depth"


def test_paths_run_one_query_per_level(store, monkeypatch):
    calls: list[str] = []
    real = store.run

    def counting(name, params=None, **structural):
        calls.append(name)
        return real(name, params, **structural)

    monkeypatch.setattr(store, "run", counting)
    found = explore.shortest_paths(store, "A01", "A05", max_depth=6)
    assert calls.count("explore/frontier_edges") == found.depth  # one frontier query per level


def test_schema_counts_types_and_predicates(store, demo_workspace):
    s = explore.schema(store)
    stats = demo_workspace.stats()
    assert dict(s.types)["Paper"] == 35 and dict(s.types)["Venue"] == 5
    assert sum(n for _, n in s.predicates) == stats.triples and s.predicate_count == stats.predicates
    assert s.type_count == len(s.types)


def test_bridges_join_hubs_through_shared_entities(store):
    joined = explore.bridges(store, ["P01", "P02", "P03"])
    objects = defaultdict(set)
    for t in joined:
        objects[t.object.id].add(t.subject.id)
    assert all(len(subjects) >= 2 for subjects in objects.values())
    assert objects["V01"] == {"P01", "P02", "P03"}  # the shared venue
    assert explore.bridges(store, ["P01"]) == []


def test_connecting_triples_reach_each_hub_from_the_topic(store):
    triples = explore.connecting_triples(store, "F01", ["P01", "P05"], max_depth=2)
    ends = {t.subject.id for t in triples} | {t.object.id for t in triples}
    assert {"F01", "P01", "P05"} <= ends
