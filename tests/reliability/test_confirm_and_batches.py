"""The other side of the bad-input table: what goes on once confirmed (--rebuild/--replace and
index drop with --yes, or a "y" on a terminal), and batches where only some items fail (exit 10
unless --keep-going, the good items applied). Also the per-question time budget as a typed error
in the library."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import run_in_process
from index_checks import kgqa_env
from reliability_state import kuzu_state

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.errors import BatchError, ConfirmationRequired, QuestionTimeoutError

pytestmark = pytest.mark.slow


def test_rebuild_with_yes_replaces_the_index(sandbox, base, shared_model):
    code, out = run_in_process(["index", "build", "--max-path-length", "1", "--replace", "--yes"])
    assert code == 0, out
    assert "rebuilt 6 of 6 hubs" in out
    with Workspace(Settings(db_path=sandbox.db), read_only=True) as ws:
        st = ws.index_status()
        assert st.counts.hubs == 6 and st.info.params["max_path_length"] == 1
    assert kuzu_state(sandbox.db).graph == base.state.graph  # the graph is untouched


def test_drop_with_yes_removes_the_index_and_keeps_the_graph(sandbox, base):
    code, out = run_in_process(["index", "drop", "--yes"])
    assert code == 0 and "dropped the kuzu index: 6 hubs" in out, out
    after = kuzu_state(sandbox.db)
    assert after.graph == base.state.graph and after.counts[2:6] == (0, 0, 0, 0)
    code, out = run_in_process(["ask", "Which papers?"])
    assert code == 5 and "no HubLink index" in out, out
    code, out = run_in_process(["index", "drop"])  # nothing left: says so, needs no confirmation
    assert code == 0 and "nothing to drop" in out


def _on_a_terminal(db, args: list[str], answer: bytes) -> subprocess.CompletedProcess:
    """Run `kgqa ARGS` with stdin a pseudo-terminal that answers `answer` to the prompt."""
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "kgqa_cli.main", *args],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=kgqa_env(db),
        )
        os.write(master, answer)
        out, err = proc.communicate(timeout=120)
    finally:
        os.close(master)
        os.close(slave)
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def test_a_terminal_is_asked_first(sandbox, base):
    no = _on_a_terminal(sandbox.db, ["index", "drop"], b"n\n")
    assert no.returncode == 2 and "this removes 6 hubs" in no.stderr and "not confirmed" in no.stderr, no.stderr
    assert kuzu_state(sandbox.db) == base.state
    yes = _on_a_terminal(sandbox.db, ["index", "drop"], b"y\n")
    assert yes.returncode == 0 and "dropped" in yes.stdout, yes.stdout + yes.stderr
    assert kuzu_state(sandbox.db).counts[2] == 0


def test_load_of_several_files_some_bad(sandbox, base):
    (sandbox.dir / "new.csv").write_text("subject,predicate,object\nP9,venue,V1\n", encoding="utf-8")
    (sandbox.dir / "bad.csv").write_bytes(b"subject,predicate,object\nP8,venue,V\x001\n")
    code, out = run_in_process(["load", "new.csv", "bad.csv"])
    assert code == BatchError.exit_code and "1 of 2 files failed" in out and "bad.csv, line 2" in out, out
    assert kuzu_state(sandbox.db).counts[1] == base.state.counts[1] + 1  # new.csv loaded (each file atomic)
    (sandbox.dir / "new2.csv").write_text("subject,predicate,object\nP10,venue,V1\n", encoding="utf-8")
    code, out = run_in_process(["load", "new2.csv", "bad.csv", "--keep-going"])
    assert code == 0 and "note: 1 of 2 files failed" in out, out
    assert kuzu_state(sandbox.db).counts[1] == base.state.counts[1] + 2


def test_triples_delete_from_a_file_some_absent(sandbox, base):
    (sandbox.dir / "some.csv").write_text("subject,predicate,object\nP1,venue,V1\nP1,venue,V2\n", encoding="utf-8")
    code, out = run_in_process(["triples", "delete", "some.csv"])
    assert code == BatchError.exit_code and "1 of 2 triples to delete failed" in out, out
    assert kuzu_state(sandbox.db).counts[1] == base.state.counts[1] - 1
    (sandbox.dir / "more.csv").write_text("subject,predicate,object\nP2,venue,V1\nP2,venue,V2\n", encoding="utf-8")
    code, out = run_in_process(["triples", "delete", "more.csv", "--keep-going"])
    assert code == 0 and "1 not in the graph" in out, out


def test_eval_with_some_questions_failing(sandbox, shared_model):
    (sandbox.dir / "mixed.csv").write_text(
        "uid,question,topic_entity_id,golden_triples\n"
        "q1,Which papers were published at ICSA?,V1,[]\n"
        "q2,Which venues?,NOPE,[]\n",
        encoding="utf-8",
    )
    code, out = run_in_process(["eval", "mixed.csv", "--out", "run1.jsonl"])
    assert code == BatchError.exit_code and "1 of 2 questions failed" in out, out
    code, out = run_in_process(["eval", "mixed.csv", "--out", "run2.jsonl", "--keep-going"])
    assert code == 0 and "1 answered, 1 failed" in out, out


def test_eval_stops_before_the_first_question_without_an_index(sandbox):
    run_in_process(["index", "drop", "--yes"])
    code, out = run_in_process(["eval", "questions.csv", "--out", "run.jsonl"])
    assert code == 5 and "no HubLink index" in out, out
    assert not (sandbox.dir / "run.jsonl").exists()


def test_question_time_budget_is_a_typed_error(sandbox, embedder):
    settings = Settings.from_env(sandbox.db, question_timeout_s=1e-6)
    with Workspace(settings, read_only=True, embedder=embedder) as ws:
        with pytest.raises(QuestionTimeoutError, match="time budget of 1e-06 s"):
            ws.ask("Which papers were published at ICSA?", topic_entity="V1")
    with Workspace(Settings.from_env(sandbox.db), read_only=True, embedder=embedder) as ws:  # the default budget: 30 s
        assert ws.settings.question_timeout_s == 30.0
        assert ws.ask("Which papers were published at ICSA?", topic_entity="V1").sources


def test_confirmation_errors_are_config_errors():
    assert issubclass(ConfirmationRequired, Exception) and ConfirmationRequired.exit_code == 2
    assert QuestionTimeoutError.exit_code == 9 and BatchError.exit_code == 10
