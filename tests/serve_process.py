"""A real `kgqa serve` subprocess for tests (tests/integration/test_serve.py, test_own_connections.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.service.state import read_state

STARTUP_TIMEOUT_S = 180


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KGQA_SERVE_TOKEN", "KGQA_DB")}
    return {**env, "HF_HUB_OFFLINE": "1", **extra}


class Service:
    """A `kgqa serve` subprocess on a free port of 127.0.0.1."""

    def __init__(self, db: Path, *args: str) -> None:
        self.db = db
        self.proc = subprocess.Popen([sys.executable, "-m", "kgqa_cli.main", "--db", str(db), "serve", "--port", "0",
                                      *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while (state := read_state(db)) is None or state.pid != self.proc.pid:
            if self.proc.poll() is not None:
                raise AssertionError(f"kgqa serve exited {self.proc.returncode}: {self.proc.stderr.read()}")
            if time.monotonic() > deadline:
                self.stop()
                raise AssertionError("kgqa serve did not start in time")
            time.sleep(0.2)
        self.state = state
        self.url = state.url

    def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                raw: bytes | None = None) -> tuple[int, dict[str, Any], dict[str, str]]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return resp.status, json.loads(resp.read()), dict(resp.headers)
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read()), dict(exc.headers)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def build_demo_db(path: Path, embedder: Any) -> Path:
    """The demo graph with its index at `path`, closed again (services and user processes open it)."""
    with Workspace.init(Settings(db_path=path)) as ws:
        ws._embedder = embedder
        ws.load(demo_graph_path())
        ws.build_index(IndexParams(hub_types=("Paper",)))
    return path
