"""Path de-duplication, the subject diversity ranker and hub scoring/pruning (thesis Alg. 9, 10, 16)."""

from __future__ import annotations

import math
from collections import defaultdict

from kgqa.types import Hub, HubPath, VectorLevel

#: Hub scores are compared to this many decimals. The stores keep vectors at different precisions
#: (float16 or float32 in Kùzu's exact-scoring copy, halfvec or vector in pgvector, by KGQA_HALF_VECTORS
#: and the index's age), about 3 significant decimals at the least, so closer scores are ties, broken
#: by root id: the same hubs in the same order whichever store holds the index (docs/postgres-graph.md).
SCORE_DECIMALS = 3


def hub_rank_key(hub: Hub) -> tuple[float, str]:
    """The order of hubs: best score first (to SCORE_DECIMALS), ties by root id."""
    return (-round(hub.score, SCORE_DECIMALS), hub.root.id)


def best_per_path(paths: list[HubPath]) -> list[HubPath]:
    """Keep, for each path hash, the occurrence (level) with the highest score."""
    best: dict[str, HubPath] = {}
    for p in paths:
        old = best.get(p.hash)
        if old is None or p.score > old.score:
            best[p.hash] = p
    return sorted(best.values(), key=lambda p: (-p.score, p.hash))


def _subject(path: HubPath) -> str | None:
    """EXTRACTSUBJECT: the subject of the matched triple, only for triple-level matches."""
    if path.level is not VectorLevel.TRIPLE:
        return None
    for t in path.triples:
        if t.text == path.embedded_text:
            return t.subject.id
    return None


def diversity_rank(paths: list[HubPath], penalty: float) -> list[HubPath]:
    """Subtract `penalty` x (times this subject was already seen) from each path's score, re-sort."""
    counts: dict[str, int] = defaultdict(int)
    ranked = sorted(paths, key=lambda p: (-p.score, p.hash))
    for p in ranked:
        subject = _subject(p)
        if subject is not None:
            p.score -= penalty * counts[subject]
            counts[subject] += 1
    return sorted(ranked, key=lambda p: (-p.score, p.hash))


def hub_score(scores: list[float], alpha: float) -> float:
    """Weighted mean of path scores with weights exp(alpha * s) (thesis Alg. 16)."""
    if not scores:
        return 0.0
    top = max(scores)
    weights = [math.exp(alpha * (s - top)) for s in scores]  # shifted for numerical stability
    return sum(w * s for w, s in zip(weights, scores)) / sum(weights)


def prune_hubs(hubs: list[Hub], keep: int, alpha: float) -> list[Hub]:
    """Score every hub from its paths and keep the `keep` best (ties: by root id, `hub_rank_key`)."""
    for h in hubs:
        h.score = hub_score([p.score for p in h.paths], alpha)
    return sorted(hubs, key=hub_rank_key)[:keep]
