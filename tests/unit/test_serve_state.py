"""The service state file and the client's liveness check (no model, no database)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from dataclasses import replace

from kgqa.config import RetrievalParams
from kgqa.retrieval.options import AskOptions, options_from_params, params_from_options
from kgqa.serve_state import new_state, read_state, remove_state, state_path, token_hint, write_state
from kgqa.service.client import find_service


def test_state_round_trip_and_removal_only_by_its_owner(tmp_path):
    db = tmp_path / "g.kuzu"
    state = new_state(db, "127.0.0.1", 8750, "tok")
    path = write_state(state)
    assert path == state_path(db) and path.name == "g.kuzu.serve.json"
    assert read_state(db) == state and state.token_hint == token_hint("tok") != "tok"
    assert not list(tmp_path.glob("*.tmp"))
    remove_state(db, pid=state.pid + 1)  # another process's file stays
    assert path.exists()
    remove_state(db, pid=state.pid)
    assert not path.exists() and read_state(db) is None


def test_unreadable_state_file_means_no_service(tmp_path):
    db = tmp_path / "g.kuzu"
    state_path(db).write_text("{not json")
    assert read_state(db) is None and find_service(db) is None


def test_dead_pid_or_silent_port_means_no_service(tmp_path):
    db = tmp_path / "g.kuzu"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    write_state(replace(new_state(db, "127.0.0.1", 1, None), pid=int(dead.stdout)))
    assert find_service(db) is None
    with socket.socket() as listener:  # a live pid and a port that accepts but never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        write_state(new_state(db, "127.0.0.1", listener.getsockname()[1], None))
        assert read_state(db).pid == os.getpid() and find_service(db) is None


def test_options_map_to_retrieval_params():
    params = params_from_options(
        AskOptions(
            strategy="direct",
            hubs=7,
            alpha=2.5,
            max_level=2,
            components=False,
            triple_filter=False,
            scoring="thesis",
            params={"k": 3},
        )
    )
    assert (params.strategy, params.hubs_to_keep, params.path_weight_alpha, params.max_retrieval_level) == (
        "direct",
        7,
        2.5,
        2,
    )
    assert not params.use_components and not params.filter_output_triples and params.scoring == "thesis"
    assert params.extra == {"k": 3}
    defaults = params_from_options(AskOptions())
    assert defaults.hubs_to_keep == 30 and defaults.use_components and defaults.filter_output_triples


def test_options_from_params_inverts_params_from_options():
    params = RetrievalParams(
        strategy="direct",
        hubs_to_keep=9,
        paths_per_hub=4,
        use_components=False,
        diversity_penalty=0.2,
        path_weight_alpha=1.5,
        max_retrieval_level=3,
        filter_output_triples=False,
        max_output_triples=7,
        scoring="thesis",
        topic_entity="P01",
        extra={"k": 2},
    )
    assert params_from_options(options_from_params(params)) == params
    assert params_from_options(options_from_params(RetrievalParams())) == RetrievalParams()
