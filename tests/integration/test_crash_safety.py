"""Crash safety and concurrency with real processes: `kgqa --trace index build|update` is SIGKILLed
at chosen points of its trace (right after a batch's COMMIT, and inside a batch's transaction), run
again, and must end with the index a clean build gives: no duplicate HubVectors, no half-written
hub, nothing lost. While a writer holds the database, readers and a second writer get a clear
"database busy" error (exit code 4) and change nothing."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from index_checks import after_commit_of_vectors, assert_consistent, inside_transaction, kgqa_env, kill_when, snapshot

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.graph.edits import triple_record
from kgqa.types import synthetic_literal_id

pytestmark = pytest.mark.slow

BUILD = ["index", "build", "--hubs-per-batch", "5"]


def open_ws(db, embedder) -> Workspace:
    ws = Workspace(Settings(db_path=db), embedder=embedder)
    return ws


def committed_hubs(db) -> tuple[str, int]:
    with Workspace(Settings(db_path=db)) as ws:
        st = ws.index_status()
        return (st.info.status if st.info else "none"), st.counts.hubs


def change_graph(ws: Workspace) -> None:
    """Touch eight hubs: the label of venue V02 (seven papers), and a year and a method of P03."""
    ws.add_triples(
        [triple_record("P06", "venue", "V02", object_label="European Conference on Software Architecture 2.0")]
    )
    ws.delete_triples([("P03", "publication year", synthetic_literal_id("2019"))])
    ws.add_triples([triple_record("P03", "publication year", "2024", literal=True)])
    ws.add_triples([triple_record("C003", "evaluation method", "M07")])


def test_kill_build_and_update_at_any_point_then_resume(tmp_path, embedder, demo_workspace):
    reference = snapshot(demo_workspace)  # a clean build of the demo graph (35 Paper hubs)
    db = tmp_path / "crash.kuzu"
    with Workspace.init(Settings(db_path=db)) as ws:
        ws.load(demo_graph_path())

    # (a) killed right after the first batch committed: that batch stays, whole
    kill_when(db, BUILD, after_commit_of_vectors)
    status, hubs = committed_hubs(db)
    assert status == "building" and hubs >= 5 and hubs % 5 == 0

    # (b) killed inside the next batch's transaction: the batch is rolled back as a whole
    kill_when(db, BUILD, inside_transaction)
    status, after_b = committed_hubs(db)
    assert status == "building" and after_b in (hubs, hubs + 5) and after_b % 5 == 0

    # run again (in this process: its model has the demo texts cached): it finishes the job, and
    # the index is the clean build's
    with open_ws(db, embedder) as ws:
        done = ws.build_index(IndexParams(hub_types=("Paper",), hubs_per_batch=5))
        assert (done.hubs_rebuilt, done.hubs_added, done.hubs_unchanged) == (35 - after_b, 35 - after_b, after_b)
        assert assert_consistent(ws) == reference
        assert ws.build_index(IndexParams(hub_types=("Paper",))).nothing_to_do  # a third run rebuilds nothing

    # the same for `index update` after a graph change (reference: a clean build of the changed graph)
    with Workspace.init(Settings(db_path=tmp_path / "ref.kuzu"), embedder=embedder) as ref:
        ref.load(demo_graph_path())
        change_graph(ref)
        ref.build_index(IndexParams(hub_types=("Paper",)))
        changed_reference = snapshot(ref)
    with open_ws(db, embedder) as ws:
        change_graph(ws)
        marks = ws.dirty_hubs()
    assert len(marks) == 8
    kill_when(db, ["index", "update", "--hubs-per-batch", "2"], after_commit_of_vectors)
    kill_when(db, ["index", "update", "--dirty", "--hubs-per-batch", "2"], inside_transaction)
    with open_ws(db, embedder) as ws:
        assert sorted(ws.dirty_hubs()) == sorted(marks)  # marks go only after a rebuild that completed
        resumed = ws.update_index(dirty=True)
        assert resumed.mode == "full" and "not complete" in resumed.notes[0]  # an interrupted update: all checked
        assert 0 < resumed.hubs_rebuilt < 8 and set(resumed.rebuilt_ids) < set(marks)
        assert assert_consistent(ws) == changed_reference
        assert ws.dirty_hubs() == []
        assert ws.update_index().nothing_to_do


def test_readers_and_a_second_writer_while_an_update_runs(tmp_path, embedder):
    db = tmp_path / "busy.kuzu"
    (tmp_path / "g.csv").write_text(
        "subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal\n"
        "P1,venue,V1,Graph QA at Scale,Paper,ICSA,Venue,false\n"
        "P1,publication year,2019,Graph QA at Scale,Paper,,,true\n"
        "P2,venue,V1,Hubs for Retrieval,Paper,ICSA,Venue,false\n",
        encoding="utf-8",
    )
    with Workspace.init(Settings(db_path=db), embedder=embedder) as ws:
        ws.load(tmp_path / "g.csv")
        ws.build_index(IndexParams(hub_types=("Paper",)))
        ws.delete_triples([("P1", "publication year", synthetic_literal_id("2019"))])  # marks P1
        before = snapshot(ws)
    writer = subprocess.Popen(
        [sys.executable, "-m", "kgqa_cli.main", "--trace", "index", "update", "--dirty"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=kgqa_env(db),
    )
    try:
        assert writer.stderr is not None
        first = writer.stderr.readline()  # the writer has the database open once it traces a query
        assert first.startswith("[trace]"), first
        writer.send_signal(signal.SIGSTOP)  # hold it there, mid-update, while the others try
        others = [
            subprocess.Popen(
                [sys.executable, "-m", "kgqa_cli.main", *args],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=kgqa_env(db),
            )
            for args in (
                ["ask", "Which papers appeared at ICSA?", "--topic-entity", "V1"],  # a reader
                ["index", "update"],  # a second writer
                ["triples", "add", "-s", "P2", "-p", "publication year", "-o", "2020", "--literal"],
            )
        ]
        results = [(p.wait(timeout=300), p.communicate()[1]) for p in others]
    finally:
        writer.send_signal(signal.SIGCONT)
        out, err = writer.communicate(timeout=300)
    for code, stderr in results:
        assert code == 4 and "database busy" in stderr and "try again" in stderr, stderr
    assert writer.returncode == 0, err[-2000:]
    assert "rebuilt 1 of 1 hubs" in out and "rebuilt: Graph QA at Scale (P1)" in out
    with open_ws(db, embedder) as ws:
        after = assert_consistent(ws)
        assert set(after["hubs"]) == set(before["hubs"]) and after["hubs"]["P1"] != before["hubs"]["P1"]
        assert ws.stats().triples == 2  # the refused `triples add` added nothing
