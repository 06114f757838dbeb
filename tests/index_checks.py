"""Helpers for the update and crash tests: a full snapshot of a Kùzu hub index, consistency checks
against the graph, and the `kgqa` CLI run as a subprocess (stderr read line by line)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from kgqa.api import Workspace
from kgqa.graph.store import GraphStore
from kgqa.indexing.paths import vector_texts
from kgqa.types import text_hash
from kgqa.vectorstores.base import decode_triples


def checkpoint_threshold(store: GraphStore) -> int:
    """Kùzu's checkpoint threshold (bytes of write-ahead log) on the store's database now."""
    return int(store.query("CALL current_setting('checkpoint_threshold') RETURN *")[1][0][0])


def snapshot(ws: Workspace) -> dict:
    """Everything a clean build determines: hubs with signatures, paths with texts and triples,
    HubVectors (as a sorted list, so duplicates show) and the embedded texts."""
    q = ws.store.query
    hubs = dict(q("MATCH (h:kgqa_Hub) RETURN h.id, h.signature")[1])
    paths = {
        r[0]: (r[1], r[2], r[3])
        for r in q("MATCH (h:kgqa_Hub)-[:kgqa_HasPath]->(p:kgqa_HubPath) RETURN p.hash, h.id, p.text, p.triples")[1]
    }
    vectors = sorted(
        tuple(r)
        for r in q("MATCH (p:kgqa_HubPath)-[e:kgqa_Embeds]->(t:kgqa_EmbeddedText) RETURN p.hash, e.level, t.hash")[1]
    )
    texts = sorted(r[0] for r in q("MATCH (t:kgqa_EmbeddedText) RETURN t.hash")[1])
    return {"hubs": hubs, "paths": paths, "vectors": vectors, "texts": texts}


def assert_consistent(ws: Workspace) -> dict:
    """The stored index is whole and matches the graph: no duplicate HubVectors, no path without
    its hub, no hub short of paths, every path embedded exactly at its four levels, no unused text,
    and a dry-run full update finds nothing to rebuild or remove. Returns the snapshot."""
    snap = snapshot(ws)
    dups = [v for v, n in Counter(snap["vectors"]).items() if n > 1]
    assert not dups, f"duplicate HubVectors: {dups[:3]}"
    q = ws.store.query
    assert q("MATCH (p:kgqa_HubPath) WHERE NOT EXISTS { MATCH (:kgqa_Hub)-[:kgqa_HasPath]->(p) } RETURN count(*)")[
        1
    ] == [[0]]
    counts = q(
        "MATCH (h:kgqa_Hub) OPTIONAL MATCH (h)-[:kgqa_HasPath]->(p:kgqa_HubPath) RETURN h.id, h.path_count, count(p)"
    )[1]
    assert all(n == m for _, n, m in counts), [c for c in counts if c[1] != c[2]]
    by_path: dict[str, set] = {}
    for ph, level, th in snap["vectors"]:
        by_path.setdefault(ph, set()).add((level, th))
    for ph, (_, text, triples) in snap["paths"].items():
        expected = {(lvl.value, text_hash(t)) for lvl, t in vector_texts(text, decode_triples(triples))}
        assert by_path.get(ph) == expected, f"path {ph} has vectors {by_path.get(ph)}, expected {expected}"
    used = {th for _, _, th in snap["vectors"]}
    assert set(snap["texts"]) == used, "embedded texts no HubVector uses (or missing ones)"
    for th, text in q("MATCH (t:kgqa_EmbeddedText) RETURN t.hash, t.text")[1]:
        assert text_hash(text) == th
    info = ws.index_status().info
    assert info is not None and info.status == "complete", info
    check = ws.update_index(dry_run=True)
    assert check.hubs_rebuilt == 0 and check.hubs_removed == 0, (check.rebuilt_ids, check.hubs_removed)
    return snap


def kgqa_env(db: Path) -> dict[str, str]:
    """The environment of a `kgqa` subprocess on `db` (offline model)."""
    return dict(os.environ, KGQA_DB=str(db), HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")


def kgqa_run(db: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run `python -m kgqa_cli.main ARGS` to the end."""
    return subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *args],
        capture_output=True,
        text=True,
        env=kgqa_env(db),
        timeout=timeout,
    )


def kill_when(
    db: Path, args: list[str], should_kill: Callable[[str, list[str]], bool], timeout: float = 300
) -> list[str]:
    """Run `kgqa --trace ARGS`, read its stderr line by line and SIGKILL it as soon as
    `should_kill(line, lines so far)` is true. Returns the lines read; fails if it ended by itself."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "kgqa_cli.main", "--trace", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=kgqa_env(db),
    )
    lines: list[str] = []
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if should_kill(line, lines):
                proc.send_signal(signal.SIGKILL)
                break
        proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL, f"not killed (exit {proc.returncode}): {lines[-5:]}"
    return lines


def after_commit_of_vectors(line: str, lines: list[str]) -> bool:
    """Kill point (a): right after the first COMMIT that follows an `indexing/insert_vectors`."""
    return line.startswith("[trace] COMMIT") and any(x.startswith("[trace] indexing/insert_vectors") for x in lines)


def inside_transaction(line: str, lines: list[str]) -> bool:
    """Kill point (b): after an `indexing/insert_paths`, i.e. between its BEGIN and its COMMIT."""
    return line.startswith("[trace] indexing/insert_paths")
