"""The evaluation harness: the question-set reader, resumable runs, reports, SQL, and the CLI."""

from __future__ import annotations

import json

import pytest

from kgqa.demo import demo_questions_path
from kgqa.errors import InputError
from kgqa.evaluation.dataset import read_questions
from kgqa.evaluation.report import evaluate, format_table, query_scores, write_html, write_scores
from kgqa.evaluation.runner import finished_uids, read_run, run_questions
from kgqa.types import Answer


def test_reader_dedupes_and_reports_bad_rows(tmp_path):
    f = tmp_path / "q.csv"
    f.write_text(
        'uid,question,golden_triples,topic_entity_id\na,Q1?,"[\'(x, p, y)\']",T\na,Q1 again?,"[]",T\nb,Q2?,"[]",\n',
        encoding="utf-8",
    )
    qs = read_questions(f)
    assert [q.uid for q in qs] == ["a", "b"] and qs[0].golden == ("(x, p, y)",) and qs[1].topic_entity is None
    f.write_text('uid,question,golden_triples\nc,Q?,"[oops"\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 2.*golden_triples"):
        read_questions(f)
    f.write_text("uid,question\nc,Q?\n", encoding="utf-8")
    with pytest.raises(InputError, match="golden_triples"):
        read_questions(f)


def test_run_resumes_and_report_scores(tmp_path):
    qs = read_questions(demo_questions_path())
    assert len(qs) == 12
    calls = []

    def ask(q):
        calls.append(q.uid)
        return Answer(q.question, "a", [], list(q.golden[:1]) + ["(noise, p, o)"], [])

    out = tmp_path / "run.jsonl"
    first = run_questions(qs[:5], ask, out, {"llm_mode": "offline"})
    with out.open("a", encoding="utf-8") as fh:
        fh.write('{"uid": "torn')  # an interrupted write
    second = run_questions(qs, ask, out, {"llm_mode": "offline"})
    assert (first.answered, second.done_before, second.answered) == (5, 5, 7)
    assert calls == [q.uid for q in qs[:5]] + [q.uid for q in qs[5:]]
    assert finished_uids(out) == {q.uid for q in qs}
    ev = evaluate(read_run(out), qs)
    assert ev.overall["n"] == 12 and ev.overall["mrr_at_10"] == 1.0 and 0 < ev.overall["recall"] < 1
    assert "thesis HubLink (T)" in format_table(ev, "offline")
    page = write_html(ev, tmp_path / "r.html", "t", "offline")
    assert "<svg" in page.read_text(encoding="utf-8")
    scores = write_scores(ev, tmp_path / "s.jsonl")
    cols, rows = query_scores(scores, tmp_path / "s.jsonl", "SELECT count(*) AS n, max(mrr_at_10) FROM scores")
    assert cols[0] == "n" and rows[0] == (12, 1.0)


def test_eval_on_demo_questions(demo_workspace, tmp_path):
    qs = read_questions(demo_questions_path())
    out = tmp_path / "demo.jsonl"

    def ask(q):
        from kgqa.config import RetrievalParams

        return demo_workspace.ask(q.question, RetrievalParams(topic_entity=q.topic_entity, hubs_to_keep=10))

    run_questions(qs, ask, out, {"llm_mode": "offline"})
    records = read_run(out)
    assert all(r["llm_tokens"] == 0 and "runtime_s" in r for r in records)
    ev = evaluate(records, qs)
    assert ev.overall["hits_at_10"] > 0.3  # a floor for the demo, not a quality target
    json.dumps(ev.overall)
