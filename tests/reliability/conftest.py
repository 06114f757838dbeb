"""Fixtures of the reliability suite: one small indexed graph per module, copied for every row
that may write, and the `kgqa` entry point run in-process (click's CliRunner isolation) or as a
real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from reliability_state import GRAPH_CSV, QUESTIONS_CSV, State, copy_db, kuzu_state

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings


@dataclass(frozen=True)
class Base:
    """The indexed base database (never written by a row) and its state."""

    dir: Path
    db: Path
    state: State


@pytest.fixture(scope="module")
def base(tmp_path_factory, embedder) -> Base:
    """A six-paper graph with its HubLink index (hub type Paper) and DiFaR's label index, built once
    per module."""
    root = tmp_path_factory.mktemp("reliability-base")
    (root / "graph.csv").write_text(GRAPH_CSV, encoding="utf-8")
    db = root / "base.kuzu"
    with Workspace.init(Settings(db_path=db)) as ws:
        ws._embedder = embedder
        ws.load(root / "graph.csv")
        ws.build_index(IndexParams(hub_types=("Paper",)))
        ws.build_label_index("difar")  # DiFaR's triple texts; simgrag and coe have no label index here
    return Base(root, db, kuzu_state(db))


@pytest.fixture(scope="module")
def shared_model(embedder):
    """Every Workspace of the module's in-process runs uses the session's loaded model."""
    mp = pytest.MonkeyPatch()
    mp.setattr("kgqa.api.get_embedder", lambda name, batch_size=64, *backend: embedder if name == embedder.name
               else _load(name, batch_size))
    yield embedder
    mp.undo()


def _load(name: str, batch_size: int):
    from kgqa.embeddings.sentence_transformer import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(name, batch_size=batch_size)


@dataclass
class Sandbox:
    """A row's working directory: a copy of the base database, its input files and the runs."""

    dir: Path
    db: Path

    def fill(self, text: str) -> str:
        """Placeholders of a row: {dir}, {db}."""
        return text.replace("{dir}", str(self.dir)).replace("{db}", str(self.db))


@pytest.fixture
def sandbox(base, tmp_path, monkeypatch) -> Sandbox:
    """A fresh copy of the base database in tmp_path, which is also the working directory."""
    db = copy_db(base.db, tmp_path / "db")
    (tmp_path / "graph.csv").write_text(GRAPH_CSV, encoding="utf-8")
    (tmp_path / "questions.csv").write_text(QUESTIONS_CSV, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for name in [k for k in os.environ if k.startswith(("KGQA_", "ANTHROPIC_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("KGQA_DB", str(db))
    monkeypatch.setenv("KGQA_LLM_CACHE", "off")
    return Sandbox(tmp_path, db)


def run_in_process(argv: list[str], env: dict[str, str] | None = None, stdin: str | None = None) -> tuple[int, str]:
    """Run the `kgqa` entry point (kgqa_cli.main.main, as the console script does) in this process,
    stdin not a terminal; returns (exit code, stdout + stderr)."""
    from kgqa_cli.main import main

    runner = CliRunner()
    with runner.isolation(input=stdin or "", env=env) as (out, err, _):
        saved = sys.argv
        sys.argv = ["kgqa", *argv]
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            sys.argv = saved
        return code, out.getvalue().decode(errors="replace") + err.getvalue().decode(errors="replace")


def run_process(argv: list[str], env: dict[str, str] | None = None, stdin: str | None = None,
                timeout: float = 300) -> tuple[int, str]:
    """Run `python -m kgqa_cli.main ARGV` as a real process (stdin a pipe); (exit code, output)."""
    full = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", **(env or {}))
    proc = subprocess.run([sys.executable, "-m", "kgqa_cli.main", *argv], input=stdin or "", capture_output=True,
                          text=True, env=full, timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr
