"""The evaluation metrics pinned on hand-made cases, edge cases included."""

from __future__ import annotations

import math

from kgqa.evaluation.metrics import (
    QuestionScores,
    em_at_k,
    hits_at_k,
    macro_average,
    map_at_k,
    mrr_at_k,
    precision_recall_f1,
    score_question,
)

G = ["(a, p, b)", "(c, p, d)"]


def test_prf_sets_exact_case_sensitive_and_rounded():
    assert precision_recall_f1(["(a, p, b)", "(x, p, y)", "(A, p, b)"], G) == (0.33, 0.5, 0.4)
    assert precision_recall_f1(["(a, p, b)", "(a, p, b)"], G) == (1.0, 0.5, 0.67)  # duplicates are one
    assert precision_recall_f1([], G) == (0.0, 0.0, 0.0)
    assert precision_recall_f1([], []) == (1.0, 1.0, 1.0)
    assert precision_recall_f1(["(a, p, b)"], []) == (0.0, 0.0, 0.0)


def test_hits_substring_case_insensitive_top10_only():
    retrieved = ["noise"] * 3 + ["prefix (A, P, B) suffix"] + ["noise"] * 6 + ["(c, p, d)"]
    assert hits_at_k(retrieved, G) == 0.5  # (c, p, d) is at rank 11
    assert hits_at_k([], G) == 0.0 and hits_at_k([], []) == 1.0


def test_map_adds_found_over_rank_divided_by_min_g_10():
    retrieved = ["x", "(a, p, b)", "y", "(c, p, d)"]
    assert math.isclose(map_at_k(retrieved, G), (1 / 2 + 2 / 4) / 2)
    both = ["(a, p, b) (c, p, d)"]  # one context holding two goldens adds |found| = 2 at rank 1
    assert math.isclose(map_at_k(both, G), 2 / 1 / 2)
    assert map_at_k(["(a, p, b)", "(a, p, b)"], G) == 0.5  # a found golden adds nothing again
    golden12 = [f"(g{i}, p, o)" for i in range(12)]
    assert math.isclose(map_at_k(golden12[:10], golden12), sum(r / r for r in range(1, 11)) / 10)


def test_mrr_and_em():
    assert mrr_at_k(["x", "y", "(c, p, d)"], G) == 1 / 3
    assert mrr_at_k(["x"] * 10 + ["(a, p, b)"], G) == 0.0
    assert em_at_k(["(a, p, b)", "(a, p, b)", "x", "(A, p, b)"], G) == 0.5
    assert em_at_k([], G) == 0.0 and em_at_k([], []) == 1.0


def test_score_question_and_macro_average():
    s = score_question(["(a, p, b)"], G)
    assert s == QuestionScores(1.0, 0.5, 0.67, 0.5, 0.5, 1.0, 1.0)
    avg = macro_average([s, score_question([], G)])
    assert math.isclose(avg["f1"], 0.335) and math.isclose(avg["mrr_at_10"], 0.5)
