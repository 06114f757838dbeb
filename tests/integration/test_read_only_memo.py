"""What a read-only workspace keeps between questions gives exactly what a fresh read gives."""

from __future__ import annotations

import numpy as np

from kgqa.graph.traversal import RootLevels
from kgqa.memory import GIB, MemoryCeiling
from kgqa.retrieval.graph_facts import GraphFacts
from kgqa.retrieval.hublink.hits import HitTable
from kgqa.vectorstores import kuzu_store
from kgqa.vectorstores.kuzu_store import KuzuHubVectorStore
from kgqa.vectorstores.vector_cache import HubVectorCache


def _by_path(table: HitTable) -> dict:
    """Order-free view of a hit table: per path its best hit and best similarities."""
    return {h.path_hash: (h, table.path_best[i].tolist()) for i, h in enumerate(table.best_hit)}


def _read_only(monkeypatch, store) -> None:
    """What a workspace opened read-only has, with a memory ceiling whose page-cache share leaves room
    for the hub vector table beside the cache the session's database has (priming never reopens it)."""
    monkeypatch.setattr(store, "read_only", True)
    monkeypatch.setattr(store, "memory", MemoryCeiling(64 * GIB, "test"))


def _counting(monkeypatch, store, method: str) -> list[str]:
    names: list[str] = []
    raw = getattr(store, method)

    def counted(name, *args, **kwargs):
        names.append(name)
        return raw(name, *args, **kwargs)

    monkeypatch.setattr(store, method, counted)
    return names


def test_hit_tables_from_a_kept_layout_equal_fresh_ones(demo_workspace):
    vstore = demo_workspace.vstore
    hubs = sorted(vstore.signatures())
    cache = HubVectorCache(vstore._read_hub_vectors)
    layouts = []
    for question in ("Which papers were published at ICSA in 2019?", "Which papers use a case study?"):
        queries = demo_workspace.embedder.embed([question, "ICSA"])
        scored = cache.score(hubs, queries)
        kept = HitTable.from_scored(scored, {1: "ICSA"})
        fresh = HitTable.from_scored(vstore.score_hubs(hubs, queries), {1: "ICSA"})
        assert _by_path(kept) == _by_path(fresh) and len(kept.best_hit) > 10
        assert {h: v.tolist() for h, v in kept.hub_best.items()} == {h: v.tolist() for h, v in fresh.hub_best.items()}
        assert dict(kept.sims) == dict(fresh.sims)
        layouts.append(scored.layout)
    assert layouts[0] is layouts[1] and "hits" in layouts[0]  # the second question reused the grouping


def test_root_levels_remembered_read_no_edges_again(demo_workspace, monkeypatch):
    store = demo_workspace.store
    facts = GraphFacts(store, demo_workspace.vstore)
    fresh = [roots for roots in RootLevels(store, facts.is_hub, remember=False).levels("F01", False, 3)]
    kept = RootLevels(store, facts.is_hub, remember=True)
    assert list(kept.levels("F01", False, 3)) == fresh and any(fresh)
    names = _counting(monkeypatch, store, "run")
    assert list(kept.levels("F01", False, 3)) == fresh
    assert not [n for n in names if "edges" in n]


def test_read_only_paths_and_entities_equal_fresh_reads(demo_workspace, monkeypatch):
    store, vstore = demo_workspace.store, demo_workspace.vstore
    hubs = sorted(vstore.signatures())
    hashes = list(dict.fromkeys(demo_workspace.vstore.score_hubs(hubs[:3], np.ones((1, 384), np.float32)).path_hashes))
    hashes = hashes[::-1] + ["no-such-path"]
    fresh = vstore.paths(hashes)
    monkeypatch.setattr(store, "read_only", True)  # what a workspace opened read-only has
    kept_store = KuzuHubVectorStore(store, vstore.dim)
    assert list(kept_store.paths(hashes[:5])) == list(fresh)[:5]
    asked: list[list[str]] = []
    read = kept_store._read_paths
    monkeypatch.setattr(kept_store, "_read_paths", lambda hs, hubs=None: asked.append(hs) or read(hs, hubs))
    assert kept_store.paths(hashes) == fresh and list(kept_store.paths(hashes)) == list(fresh) == hashes[:-1]
    assert asked == [hashes[5:]]  # only the paths not read before, once
    # a primary-key lookup per path (large indexes) reads what the one scanning query reads (small ones)
    texts = [r[0] for r in store.run("indexing/text_hashes")][:40] + ["no-such-text"]
    scanned = vstore.text_hubs(texts, 3)
    by_key = KuzuHubVectorStore(store, vstore.dim)
    monkeypatch.setattr(kuzu_store, "cheaper_by_key", lambda *a: True)
    each = _counting(monkeypatch, store, "run_each")
    assert by_key.paths(hashes) == fresh
    assert scanned and by_key.text_hubs(texts, 3) == scanned
    assert each == ["retrieval/path_by_hash", "retrieval/text_hubs_one"]  # the key reads ran
    facts = GraphFacts(store, vstore)
    assert facts.entities(hubs[:3] + ["no-such-entity"]).keys() == set(hubs[:3])
    runs = _counting(monkeypatch, store, "run")
    assert list(facts.entities(hubs[:3])) == hubs[:3] and not runs
    counted = KuzuHubVectorStore(store, vstore.dim)  # read-only: the table sizes are counted once
    assert counted.counts() == counted.counts() == counted._rows()
    assert runs.count("indexing/counts") == 1
    assert counted.counts().texts == len(store.run("indexing/text_hashes"))


def test_primed_text_hubs_from_memory_equal_the_queries(demo_workspace, monkeypatch):
    """A read-only store's text -> hub arrays (`prime`) give every text the ANN search returned the
    fan-out and first hubs by id the queries give, without a query; other texts are still read."""
    store, vstore = demo_workspace.store, demo_workspace.vstore
    _read_only(monkeypatch, store)
    primed = KuzuHubVectorStore(store, vstore.dim)
    primed.prime()
    assert primed.text_hub_index is not None and primed.text_hub_index.nbytes > 0
    other = KuzuHubVectorStore(store, vstore.dim)
    other.prime(like=primed)  # a second workspace of a service shares the arrays
    assert other.text_hub_index is primed.text_hub_index
    texts: list[str] = []
    for question in (
        "Which papers were published at ICSA in 2019?",
        "Who wrote papers on microservices?",
        "case study",
    ):
        texts += [h for h, _, _ in primed.nearest_texts(demo_workspace.embedder.embed([question])[0], 40)]
    texts = list(dict.fromkeys(texts))
    for limit in (1, 3, 100):
        expected = vstore.text_hubs(texts, limit)  # not primed: read with queries
        ran = [_counting(monkeypatch, store, m) for m in ("run", "run_each", "run_columns")]
        assert primed.text_hubs(texts, limit) == expected and not any(ran)
        monkeypatch.undo()
        _read_only(monkeypatch, store)
    assert any(n > 3 and len(hubs) == 3 for n, hubs in vstore.text_hubs(texts, 3).values())  # shared texts cut
    assert len(expected) == len(texts) > 60
    unseen = [r[0] for r in store.run("indexing/text_hashes") if r[0] not in set(texts)][:5]
    assert primed.text_hubs(unseen + texts[:3], 3) == vstore.text_hubs(unseen + texts[:3], 3)
    monkeypatch.setattr(kuzu_store, "MAX_VECTORS", vstore.counts().vectors - 1)  # too many HubVectors to hold
    capped = KuzuHubVectorStore(store, vstore.dim)
    capped.prime()
    assert capped.text_hub_index is None and capped.text_hubs(texts, 3) == vstore.text_hubs(texts, 3)


def test_primed_hub_vectors_by_node_offset_equal_the_read_by_id(demo_workspace, monkeypatch):
    """A primed read-only store finds the hubs to score by node offset (`retrieval/hub_vectors_at`),
    and scores exactly what the read by hub id scores; an id it does not know falls back to the ids."""
    store, vstore = demo_workspace.store, demo_workspace.vstore
    hubs = sorted(vstore.signatures())
    queries = demo_workspace.embedder.embed(["Which papers were published at ICSA in 2019?", "ICSA"])
    fresh = HitTable.from_scored(vstore.score_hubs(hubs, queries), {1: "ICSA"})
    _read_only(monkeypatch, store)
    primed = KuzuHubVectorStore(store, vstore.dim)
    primed.prime()
    assert len(primed._hub_offsets) == len(hubs)
    assert primed.hub_table is not None  # tests/integration/test_hub_vector_table.py; here the reads from Kùzu
    primed.hub_table = None
    for asked in (hubs, hubs[:3] + ["no-such-hub"]):
        expected = fresh if asked == hubs else HitTable.from_scored(vstore.score_hubs(asked, queries), {1: "ICSA"})
        names = _counting(monkeypatch, store, "run_columns")
        kept = HitTable.from_scored(primed.score_hubs(asked, queries), {1: "ICSA"})
        assert _by_path(kept) == _by_path(expected) and len(kept.best_hit) > 3
        assert dict(kept.sims) == dict(expected.sims)
        assert names == ["retrieval/hub_vectors_at" if asked == hubs else "retrieval/hub_vectors"]
        monkeypatch.undo()
        _read_only(monkeypatch, store)
    monkeypatch.setattr(kuzu_store, "MAX_VECTORS", vstore.counts().vectors - 1)  # no arrays: offsets still read
    capped = KuzuHubVectorStore(store, vstore.dim)
    capped.prime()
    assert capped.text_hub_index is None and capped._hub_offsets == primed._hub_offsets


def test_paths_read_through_their_hubs_equal_the_reads_by_hash(demo_workspace, monkeypatch):
    """Every path of some hubs, asked with those hubs, is read through the hubs' edges (by node offset
    once primed) and equals the reads by hash, in the order asked; a hash of another hub is still read."""
    store, vstore = demo_workspace.store, demo_workspace.vstore
    hubs = sorted(vstore.signatures())[:4]
    scored = vstore.score_hubs(hubs, np.ones((1, 384), np.float32))
    hashes = list(dict.fromkeys(scored.path_hashes))[::-1]
    other = list(
        dict.fromkeys(vstore.score_hubs(sorted(vstore.signatures())[4:5], np.ones((1, 384), np.float32)).path_hashes)
    )
    expected = vstore.paths(hashes + other[:1])
    assert len(hashes) > len(hubs) and len(expected) == len(hashes) + 1
    _read_only(monkeypatch, store)
    for prime, query in ((False, "retrieval/hub_paths"), (True, "retrieval/hub_paths_at")):
        kept = KuzuHubVectorStore(store, vstore.dim)
        if prime:
            kept.prime()
            assert kept.path_table is not None  # tests/integration/test_hub_vector_table.py; here Kùzu's reads
            kept.path_table = None
        columns, each = _counting(monkeypatch, store, "run_columns"), _counting(monkeypatch, store, "run_each")
        found = kept.paths(hashes + other[:1], hubs=hubs)
        assert found == expected and list(found) == list(expected)
        assert columns[0] == query and len(each) + len(columns) == 2  # then the other hub's path by hash
        assert kept.paths(hashes[:3], hubs=hubs) == {h: expected[h] for h in hashes[:3]}
        assert len(each) + len(columns) == 2  # kept: nothing read again
        monkeypatch.undo()
        _read_only(monkeypatch, store)


def test_primed_ann_by_node_offset_finds_what_the_search_by_text_finds(demo_workspace, monkeypatch):
    """A primed read-only store's ANN search returns node offsets alone and takes the texts' hashes from
    memory (`nearest_each`, `retrieval/ann_offsets`): the same hits and similarities as the search that
    reads each hit's hash, for several query vectors at once (split between reader connections); the
    direct strategy keeps each text's best similarity, so the hits' order does not matter."""
    store, vstore = demo_workspace.store, demo_workspace.vstore
    questions = ["Which papers were published at ICSA in 2019?", "case study", "microservices", "Ingo Weber"]
    queries = demo_workspace.embedder.embed(questions)
    expected = [[(h, sim) for h, _text, sim in vstore.nearest_texts(q, 25)] for q in queries]
    assert vstore.nearest_each(queries, 25) == expected  # not primed, not read-only: one after another
    _read_only(monkeypatch, store)
    primed = KuzuHubVectorStore(store, vstore.dim)
    primed.prime()
    assert primed.text_hub_index is not None and primed.text_hub_index.hashes is not None
    names = _counting(monkeypatch, store, "run_many")
    found = primed.nearest_each(queries, 25)
    assert names == ["retrieval/ann_offsets"] and [len(hits) for hits in found] == [25] * 4
    for hits, wanted in zip(found, expected):  # in another order: Kùzu returns offsets by distance
        assert dict(hits).keys() == dict(wanted).keys()
        assert all(abs(dict(hits)[h] - s) < 1e-6 for h, s in wanted)
    # the hits' texts are then found in memory by `text_hubs`, as after the search by text
    texts = list(dict.fromkeys(h for hits in found for h, _ in hits))
    expected = vstore.text_hubs(texts, 3)
    ran = [_counting(monkeypatch, store, m) for m in ("run", "run_each", "run_columns")]
    assert primed.text_hubs(texts, 3) == expected and not any(ran)


def test_primed_hub_roots_are_the_entities_read_one_by_one(demo_workspace, monkeypatch):
    store, vstore = demo_workspace.store, demo_workspace.vstore
    hubs = sorted(vstore.signatures())
    expected = GraphFacts(store, vstore).entities(hubs + ["no-such-entity"])
    _read_only(monkeypatch, store)
    facts = GraphFacts(store, vstore)
    facts.prime_hub_roots()
    shared = GraphFacts(store, vstore)
    shared.prime_hub_roots(like=facts)  # a service's other workspaces share the roots read once
    assert shared._hub_roots is facts._hub_roots and len(facts._hub_roots) == len(hubs)
    hashes = list(vstore.score_hubs(hubs[:1], np.ones((1, 384), np.float32)).path_hashes)
    entity = next(t.object.id for rec in vstore.paths(hashes).values() for t in rec.triples if t.object.id not in hubs)
    ran = [_counting(monkeypatch, store, m) for m in ("run", "run_each", "run_many")]
    assert facts.entities(hubs) == {h: expected[h] for h in hubs} and not any(ran)
    assert list(facts.entities(hubs[::-1])) == hubs[::-1] and not any(ran)
    assert entity in facts.entities([entity, hubs[0]]) and any(ran)  # not a hub root: read
