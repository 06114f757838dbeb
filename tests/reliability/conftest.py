"""Fixtures of the reliability suite: one small indexed graph per module, copied for every row
that may write, and the `kgqa` entry point run in-process (click's CliRunner isolation) or as a
real subprocess, or an HTTP request to a running `kgqa serve` (RUNNERS, keyed by `Row.via`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from bad_input_rows import Row
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
    with Workspace.init(Settings(db_path=db), embedder=embedder) as ws:
        ws.load(root / "graph.csv")
        ws.build_index(IndexParams(hub_types=("Paper",)))
        ws.build_label_index("difar")  # DiFaR's triple texts; simgrag and coe have no label index here
    return Base(root, db, kuzu_state(db))


@pytest.fixture(scope="module")
def shared_model(embedder):
    """Every Workspace of the module's in-process runs uses the session's loaded model."""
    from kgqa.embeddings import backend_for_index, embedder_for_index

    def shared(settings, index_model):
        backend = backend_for_index(settings.embedder, settings.embedding_model, index_model)
        if settings.embedding_model == embedder.name and backend == "auto":
            return embedder
        return embedder_for_index(settings, index_model)

    mp = pytest.MonkeyPatch()
    mp.setattr("kgqa.api.embedder_for_index", shared)
    yield embedder
    mp.undo()


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


def run_process(
    argv: list[str], env: dict[str, str] | None = None, stdin: str | None = None, timeout: float = 300
) -> tuple[int, str]:
    """Run `python -m kgqa_cli.main ARGV` as a real process (stdin a pipe); (exit code, output)."""
    full = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", **(env or {}))
    proc = subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *argv],
        input=stdin or "",
        capture_output=True,
        text=True,
        env=full,
        timeout=timeout,
    )
    return proc.returncode, proc.stdout + proc.stderr


def run_http(args: list[str], headers: dict[str, str]) -> tuple[int, str]:
    """Send one HTTP row: args (METHOD, URL, BODY), `headers` as given (an empty value: not sent). The
    output is the Retry-After header, when there is one, and the JSON reply. METHOD "BURST POST" sends 8
    copies at once (up to 3 times, until one is refused) and reports a 503 if one was, else the first reply."""
    from serve_helpers import http_request

    method, url, body = args
    data = body.encode("utf-8", "surrogateescape") if body else None
    sent = {k: v for k, v in headers.items() if v}
    if method == "BURST POST":
        for _ in range(3):
            with ThreadPoolExecutor(8) as pool:
                replies = list(pool.map(lambda _: http_request("POST", url, data, sent), range(8)))
            refused = [r for r in replies if r[0] == 503]
            if refused:
                break
        status, reply, got = (refused or replies)[0]
        assert {r[0] for r in replies} <= {200, 503}, [r[:2] for r in replies]
    else:
        status, reply, got = http_request(method, url, data, sent)
    retry = f"Retry-After: {got['retry-after']}\n" if "retry-after" in got else ""
    message = reply.get("error", {}).get("message", "") if isinstance(reply, dict) else ""
    return status, f"{retry}{message}\n{json.dumps(reply)}"


def check(row: Row, code: int, output: str) -> None:
    assert code == row.code, f"{row.id}: exit {code}, expected {row.code}\n{output[-3000:]}"
    assert row.fragment.lower() in output.lower(), f"{row.id}: {row.fragment!r} not in\n{output[-3000:]}"
    assert "Traceback" not in output, output[-3000:]


#: How a row is run, by `Row.via`: (filled args, env) -> (exit or status code, output). "http": args
#: (METHOD, URL, JSON body) sent to a running `kgqa serve`, env its request headers, the status code
#: compared with `Row.code`, the JSON reply with `Row.fragment` (test_http_rows.py).
RUNNERS: dict[str, Callable[[list[str], dict[str, str]], tuple[int, str]]] = {
    "cli": run_in_process,
    "process": run_process,
    "http": run_http,
}
