"""The read-only hub-vector cache scores exactly what a fresh read from Kùzu scores."""

from __future__ import annotations

import numpy as np

from kgqa.vectorstores.vector_cache import HubVectorCache


def _rows(scored):
    sims = scored.sims[scored.text_rows]
    return sorted(
        zip(scored.hub_ids, scored.path_hashes, scored.levels, scored.texts, map(tuple, np.round(sims, 6).tolist()))
    )


def test_cache_scores_like_kuzu(demo_workspace):
    vstore = demo_workspace.vstore
    hubs = sorted(vstore.signatures())
    queries = demo_workspace.embedder.embed(["Which papers were published at ICSA in 2019?", "ICSA", "2019"])
    reads: list[list[str]] = []

    def read(ids):
        reads.append(list(ids))
        return vstore._read_hub_vectors(ids)

    cache = HubVectorCache(read)
    some, rest = hubs[: len(hubs) // 2], hubs[len(hubs) // 2 :]
    assert _rows(cache.score(some, queries)) == _rows(vstore.score_hubs(some, queries))
    everything = cache.score(hubs + ["no-such-hub"], queries)  # only the other half is read now
    assert reads[1] == rest + ["no-such-hub"]
    assert _rows(everything) == _rows(vstore.score_hubs(hubs, queries))
    assert len(everything) > 100 and everything.sims.shape[1] == 3
    cache.score(hubs, queries)
    assert len(reads) == 2  # warm: nothing read again
    assert len(cache.score(["no-such-hub"], queries)) == 0


def test_cache_past_its_limit_starts_again(demo_workspace):
    vstore = demo_workspace.vstore
    hubs = sorted(vstore.signatures())
    queries = demo_workspace.embedder.embed(["ICSA 2019"])
    cache = HubVectorCache(vstore._read_hub_vectors, limit=len(vstore.score_hubs(hubs[:2], queries)) + 1)
    cache.score(hubs[:2], queries)
    assert _rows(cache.score(hubs[:4], queries)) == _rows(vstore.score_hubs(hubs[:4], queries))
