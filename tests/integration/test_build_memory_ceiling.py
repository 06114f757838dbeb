"""A build under a memory ceiling (`--memory` / KGQA_MEMORY): it completes within the ceiling, or refuses
before writing anything with a message that names the setting."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import kuzu
import pyarrow as pa

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.graph.layout import layout_of
from kgqa.memory import MIB

#: Runs the CLI and prints its own peak RSS (bytes) as the last stderr line.
_MEASURED = (
    "import json, sys\n"
    "from kgqa.memory import peak_rss_bytes\n"
    "from kgqa_cli.main import main\n"
    "try:\n"
    "    main()\n"
    "finally:\n"
    "    sys.stderr.write('\\n' + json.dumps({'peak': peak_rss_bytes()}))\n"
)


def _kgqa(db: Path, *args: str, **env: str) -> tuple[subprocess.CompletedProcess, int]:
    proc = subprocess.run(
        [sys.executable, "-c", _MEASURED, *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, KGQA_DB=str(db), HF_HUB_OFFLINE="1", **env),
        timeout=600,
    )
    peak = json.loads(proc.stderr.strip().splitlines()[-1])["peak"]
    return proc, peak


def _loaded(tmp_path: Path) -> Path:
    db = tmp_path / "g.kuzu"
    ws = Workspace(Settings.from_env(db), create=True)
    ws.load(demo_graph_path())
    ws.close()
    return db


def test_a_too_small_ceiling_refuses_before_starting(tmp_path):
    db = _loaded(tmp_path)
    for args, env, named in (
        (("index", "build"), {"KGQA_MEMORY": "300M"}, "KGQA_MEMORY=300M"),
        (("--memory", "0.5G", "index", "build"), {}, "--memory=0.5G"),
        (("index", "build"), {"KGQA_MEMORY": "lots"}, "KGQA_MEMORY"),
    ):
        proc, _ = _kgqa(db, *args, **env)
        assert proc.returncode == 2, proc.stderr
        assert named in proc.stderr and "traceback" not in proc.stderr.lower()
    ws = Workspace(Settings.from_env(db), read_only=True)
    assert not ws.vstore.ready()  # nothing was written
    ws.close()


def _own_graph(path: Path, papers: int) -> None:
    """A user's own Kùzu property graph (their tables, filled by COPY, no HubLink loader): papers with a
    title, a year and two of `papers // 3` authors each."""
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    conn.execute("CREATE NODE TABLE Paper(id STRING PRIMARY KEY, title STRING, year INT64)")
    conn.execute("CREATE NODE TABLE Author(id STRING PRIMARY KEY, name STRING)")
    conn.execute("CREATE REL TABLE WROTE(FROM Author TO Paper)")
    authors = papers // 3
    paper_rows = pa.table(  # noqa: F841 - read by Kùzu's scan replacement
        {
            "id": [f"p{i}" for i in range(papers)],
            "title": [f"A study of topic {i % 997} in setting {i}" for i in range(papers)],
            "year": pa.array([2000 + i % 25 for i in range(papers)], pa.int64()),
        }
    )
    author_rows = pa.table({"id": [f"a{i}" for i in range(authors)], "name": [f"Author {i}" for i in range(authors)]})  # noqa: F841
    wrote_rows = pa.table(  # noqa: F841
        {
            "from": [f"a{(i * k) % authors}" for i in range(papers) for k in (1, 7)],
            "to": [f"p{i}" for i in range(papers) for _ in (1, 7)],
        }
    )
    conn.execute("COPY Paper FROM paper_rows")
    conn.execute("COPY Author FROM author_rows")
    conn.execute("COPY WROTE FROM wrote_rows")
    conn.close()
    db.close()


def test_a_graph_whose_write_batches_cannot_fit_is_refused_before_starting(tmp_path):
    """Kùzu rewrites the vectors of a text table's last node group (up to 131,072 texts) at each
    checkpoint: a graph of that many texts does not fit the 256 MiB page cache of a 1 GiB ceiling
    (kgqa/memory.py `write_bytes`), so its build is refused before it starts, with the ceiling it needs."""
    db = tmp_path / "own.kuzu"
    _own_graph(db, 15_000)
    proc, _ = _kgqa(db, "--memory", "1G", "index", "build", "--hub-type", "Paper")
    assert proc.returncode == 2, proc.stderr
    assert "--memory=1G" in proc.stderr and "write batches" in proc.stderr, proc.stderr
    assert "traceback" not in proc.stderr.lower()
    asked = int(re.search(r"at least ([\d,]+) MiB", proc.stderr).group(1).replace(",", ""))
    ws = Workspace(Settings.from_env(db, memory=f"{asked}M"))
    assert not ws.vstore.ready()  # nothing was written
    triples = layout_of(ws.store).stats(1).triples
    ws.vstore.check_build_memory(triples, 384, hubs_per_batch=IndexParams().hubs_per_batch)  # what it asks: enough
    ws.close()


def test_a_build_completes_within_the_smallest_ceiling(tmp_path, embedder):
    embedder.embed(["the ONNX export is made once, outside the measured process"])
    db = _loaded(tmp_path)
    proc, peak = _kgqa(db, "--memory", "1G", "index", "build")
    assert proc.returncode == 0, proc.stderr
    assert "35 hubs" in proc.stdout + proc.stderr
    # the peak itself is a benchmark figure (docs/scale.md), not a test: it depends on the embedder
    # backend and the machine; here the build must complete with the page cache held to its share
    print(f"peak RSS of the build under --memory 1G: {peak / MIB:.0f} MiB")
    ws = Workspace(Settings.from_env(db, memory="1G"), read_only=True)
    assert ws.store.pool_bytes <= 256 * MIB  # the page cache's share of the ceiling
    assert ws.vstore.counts().hubs == 35
    ws.close()


def test_the_page_cache_grows_before_the_hnsw_step(tmp_path, embedder, monkeypatch):
    """The build reopens the database with a larger cache before the HNSW step (its database grew) and
    the HNSW index is made on the new connection."""
    import kgqa.graph.store as store_module

    ws = Workspace.init(Settings(db_path=tmp_path / "g.kuzu"), embedder=embedder)
    ws.load(demo_graph_path())
    opened = ws.store.pool_bytes
    monkeypatch.setattr(store_module, "buffer_pool_bytes", lambda *a, **k: 2 * opened)
    report = ws.build_index(IndexParams())
    assert ws.store.pool_bytes == 2 * opened  # reopened before the HNSW step
    assert report.hubs_rebuilt == 35 and ws.vstore.has_ann_index()  # type: ignore[attr-defined]
    answer = ws.ask("Who are the authors of the paper on fault localisation?", strategy="direct")
    assert answer.hubs
    ws.close()


def test_the_hnsw_step_takes_the_room_the_batches_had(tmp_path, embedder, monkeypatch):
    """When the vectors do not fit the build's page cache but fit the larger one the ceiling allows the
    HNSW step (`MemoryCeiling.hnsw_pool_bytes`), the step runs with that cache and its vectors cached,
    and the database is open with the build's cache again afterwards."""
    import kgqa.graph.store as store_module
    from kgqa.memory import MemoryCeiling

    ceiling = MemoryCeiling.from_setting("1G")
    small = 30 * MIB  # the build's cache: too small for the step (hnsw_fits: None), the wider one holds it
    monkeypatch.setattr(store_module, "buffer_pool_bytes", lambda *a, **k: small)
    ws = Workspace.init(Settings(db_path=tmp_path / "g.kuzu", memory=ceiling), embedder=embedder)
    ws.load(demo_graph_path())
    seen: list[tuple[str, int]] = []
    ws.store.tracer = lambda name, _params, _s: seen.append((name, ws.store.pool_bytes))
    report = ws.build_index(IndexParams())
    steps = [s for s in seen if s[0].startswith("indexing/create_vector_index")]
    assert steps == [("indexing/create_vector_index", ceiling.hnsw_pool_bytes)]
    assert ceiling.hnsw_pool_bytes > ceiling.pool_bytes
    assert ws.store.pool_bytes == small  # the build's cache again
    assert report.hubs_rebuilt == 35 and ws.vstore.has_ann_index()  # type: ignore[attr-defined]
    assert ws.ask("Who are the authors of the paper on fault localisation?", strategy="direct").hubs
    ws.close()
