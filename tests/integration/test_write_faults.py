"""Writers that stop half-way, with real processes and real Kùzu: an index build SIGKILLed after its
first committed batch; then `index status` says it was interrupted and how to finish, `ask` says the
index is not complete (exit 5) instead of Kùzu's binder error about `embedded_text_vec`, and `index
update` finishes it.

A full disk is tested in tests/integration/test_full_disk.py on a real small file system (a tmpfs):
under RLIMIT_FSIZE Kùzu 0.11.3 behaved three ways in three tries (an IOException, std::terminate, a
hang), and on a really full disk it aborts the process at COMMIT, so the writers check the free
space first (kgqa/graph/disk_space.py)."""

from __future__ import annotations

import pytest
from index_checks import after_commit_of_vectors, kgqa_run, kill_when

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.demo import demo_graph_path

pytestmark = pytest.mark.slow

QUESTION = "Which papers use a controlled experiment?"


def test_a_killed_build_is_reported_and_finished(tmp_path):
    db = tmp_path / "killed.kuzu"
    with Workspace.init(Settings(db_path=db)) as ws:
        ws.load(demo_graph_path())
    kill_when(db, ["index", "build", "--hubs-per-batch", "5"], after_commit_of_vectors)

    shown = kgqa_run(db, "index", "status")
    assert shown.returncode == 0, shown.stderr
    assert "status: building (interrupted: no build runs now; finish it with `kgqa index update`" in shown.stdout

    asked = kgqa_run(db, "ask", QUESTION)
    assert asked.returncode == 5, asked.stderr
    assert "the HubLink index is not complete" in asked.stderr and "kgqa index update" in asked.stderr
    assert "embedded_text_vec" not in asked.stderr and "Binder" not in asked.stderr

    finished = kgqa_run(db, "index", "update")
    assert finished.returncode == 0, finished.stderr
    assert "status: complete\n" in kgqa_run(db, "index", "status").stdout
    assert kgqa_run(db, "ask", QUESTION).returncode == 0
