"""Answer-text metrics and the eval report's answer-text table (real rouge-score, sacrebleu, rapidfuzz
and the packaged MiniLM model)."""

from __future__ import annotations

from kgqa.evaluation.dataset import Question
from kgqa.evaluation.report import evaluate, format_text_table
from kgqa.evaluation.text_metrics import TextScorer, clean_answer, key_values, stated_count, states


def test_citations_and_reference_list_are_removed():
    text = "There are two papers (2) [1][2], see [3, 4].\nSources:\n[1] A\n[2] B"
    assert clean_answer(text) == "There are two papers (2), see."
    assert clean_answer("X [1].\n[1] Paper A\n[2] Paper B") == "X."


def test_key_values_are_titles_years_numbers_and_names():
    keys = key_values(
        "The papers of Jane Doe are 'A Study of Things' (2019) and two others, "
        "published at the International Conference on Software Architecture (ICSA)."
    )
    assert {
        "A Study of Things",
        "2019",
        "#2",
        "Jane Doe",
        "International Conference on Software Architecture (ICSA)",
    } <= set(keys)
    assert "The" not in keys


def test_states_reads_numbers_in_words_or_digits():
    assert states("There are two papers.", "#2") and states("There are 2 papers.", "#2")
    assert not states("There are three papers.", "#2")
    assert states(
        "published at the international conference on software architecture (icsa)",
        "International Conference on Software Architecture (ICSA)",
    )
    assert stated_count("Found 3 sources", {"operation": "count", "value": 2}) == 2
    assert stated_count("There are five papers.", None) == 5


def test_report_prints_the_answer_text_table(embedder):
    qs = [
        Question(
            "u1",
            "How many papers did X publish?",
            ("(P1:A, author, A1:X)",),
            retrieval_operation="counting",
            extra={"golden_answer": "X has published two papers."},
        ),
        Question(
            "u2",
            "Who wrote 'A'?",
            ("(P1:A, author, A1:X)",),
            retrieval_operation="basic",
            extra={"golden_answer": "The author of 'A' is Jane Doe."},
        ),
    ]
    records = [
        {
            "uid": "u1",
            "answer": "X has published two papers (2) [1][2].",
            "triples": ["(P1:A, author, A1:X)"],
            "result": {"operation": "count", "value": 2, "items": [], "groups": {}},
        },
        {"uid": "u2", "answer": "Nothing found.", "triples": []},
    ]
    ev = evaluate(records, qs, TextScorer(embedder.embed))
    good, bad = ev.rows
    assert good["rouge1_f1"] > 0.9 and good["count_acc"] == 1.0 and good["key_recall"] == 1.0
    assert bad["key_recall"] == 0.0 and bad["semantic"] < good["semantic"] and bad["count_acc"] is None
    assert ev.text["count_acc"] == 1.0 and ev.text["n_count_acc"] == 1
    table = format_text_table(ev, "offline")
    assert "ROUGE-1 F1" in table and "Key recall" in table and "counting (n=1)" in table
    assert format_text_table(evaluate(records, qs)) == ""  # without a scorer: no text table


def test_report_gives_the_text_metrics_per_wording_kind(embedder):
    qs = [
        Question(
            "w1",
            "who wrote 'A'",
            ("(P1:A, author, A1:X)",),
            "lookup",
            extra={"golden_answer": "X wrote 'A'.", "wording": "lower case"},
        ),
        Question("w2", "hw many papers", (), "counting", extra={"golden_answer": "Two papers (2).", "wording": "typo"}),
    ]
    records = [
        {"uid": "w1", "answer": "The author of 'A' is X [1].", "triples": ["(P1:A, author, A1:X)"]},
        {"uid": "w2", "answer": "Nothing found.", "triples": []},
    ]
    ev = evaluate(records, qs, TextScorer(embedder.embed))
    assert set(ev.text_by_wording or {}) == {"lower case", "typo"}
    assert ev.text_by_wording["lower case"]["key_recall"] == 1.0 and ev.text_by_wording["typo"]["key_recall"] == 0.0
    table = format_text_table(ev, "offline")
    assert "by wording:" in table and "lower case (n=1)" in table and "typo (n=1)" in table
