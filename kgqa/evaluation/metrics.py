"""The thesis evaluator's metrics, reproduced exactly (spec §6).

Per question, with C the ranked retrieved canonical triple strings and G the golden ones:
P/R/F1 on sets with exact, case-sensitive equality, each rounded to 2 decimals; Hits@10, MAP@10 and
MRR@10 match a golden triple when it occurs case-insensitively as a substring of a top-10 context;
EM@10 is the share of top-10 contexts (duplicates counted) that are exactly golden. An empty G scores
1.0 when C is empty and 0.0 otherwise, for every metric (the spec states this for P/R/F1; we apply
the same convention to the ranking metrics)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

K = 10


@dataclass(frozen=True)
class QuestionScores:
    """All metrics of one question."""

    precision: float
    recall: float
    f1: float
    hits_at_10: float
    map_at_10: float
    mrr_at_10: float
    em_at_10: float

    def as_dict(self) -> dict[str, float]:
        """For JSON and tables."""
        return asdict(self)


METRIC_NAMES = ("recall", "precision", "f1", "hits_at_10", "map_at_10", "mrr_at_10", "em_at_10")


def _contains(context: str, golden: str) -> bool:
    return golden.lower() in context.lower()


def precision_recall_f1(retrieved: Sequence[str], golden: Sequence[str]) -> tuple[float, float, float]:
    """Set-based P, R, F1 (exact equality), each rounded to 2 decimals."""
    c, g = set(retrieved), set(golden)
    if not g:
        v = 1.0 if not c else 0.0
        return v, v, v
    if not c:
        return 0.0, 0.0, 0.0
    hit = len(c & g)
    p, r = hit / len(c), hit / len(g)
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return round(p, 2), round(r, 2), round(f1, 2)


def hits_at_k(retrieved: Sequence[str], golden: Sequence[str], k: int = K) -> float:
    """Share of golden triples occurring in one of the top-k contexts."""
    if not golden:
        return 1.0 if not retrieved else 0.0
    top = retrieved[:k]
    return sum(1 for g in golden if any(_contains(c, g) for c in top)) / len(golden)


def map_at_k(retrieved: Sequence[str], golden: Sequence[str], k: int = K) -> float:
    """Average precision over the top k: a context holding a not-yet-found golden adds |found|/rank."""
    if not golden:
        return 1.0 if not retrieved else 0.0
    found: set[str] = set()
    total = 0.0
    for rank, c in enumerate(retrieved[:k], start=1):
        new = {g for g in golden if g not in found and _contains(c, g)}
        if new:
            found |= new
            total += len(found) / rank
    return total / min(len(set(golden)), k)


def mrr_at_k(retrieved: Sequence[str], golden: Sequence[str], k: int = K) -> float:
    """1/rank of the first top-k context that contains any golden triple."""
    if not golden:
        return 1.0 if not retrieved else 0.0
    for rank, c in enumerate(retrieved[:k], start=1):
        if any(_contains(c, g) for g in golden):
            return 1.0 / rank
    return 0.0


def em_at_k(retrieved: Sequence[str], golden: Sequence[str], k: int = K) -> float:
    """Share of the top-k contexts (duplicates counted) that are exactly a golden triple."""
    if not golden:
        return 1.0 if not retrieved else 0.0
    top = list(retrieved[:k])
    if not top:
        return 0.0
    g = set(golden)
    return sum(1 for c in top if c in g) / len(top)


def score_question(retrieved: Sequence[str], golden: Sequence[str]) -> QuestionScores:
    """Every metric for one question."""
    p, r, f1 = precision_recall_f1(retrieved, golden)
    return QuestionScores(
        p,
        r,
        f1,
        hits_at_k(retrieved, golden),
        map_at_k(retrieved, golden),
        mrr_at_k(retrieved, golden),
        em_at_k(retrieved, golden),
    )


def macro_average(scores: Sequence[QuestionScores]) -> dict[str, float]:
    """Mean of each metric over questions (the caller passes one score per unique uid)."""
    if not scores:
        return {m: 0.0 for m in METRIC_NAMES}
    return {m: sum(getattr(s, m) for s in scores) / len(scores) for m in METRIC_NAMES}
