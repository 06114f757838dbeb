"""Shared by the tests that talk to `kgqa serve` over HTTP: a real service process on a free loopback
port, the `kgqa` CLI as a process, and the demo database they open."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.demo import demo_graph_path
from kgqa.serve_state import read_state

STARTUP_TIMEOUT_S = 180


def service_env(**extra: str) -> dict[str, str]:
    """The environment of a service or CLI process: this one's, without a token or database of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("KGQA_SERVE_TOKEN", "KGQA_DB")}
    return {**env, "HF_HUB_OFFLINE": "1", **extra}


class Service:
    """A `kgqa serve` subprocess on a free port of 127.0.0.1 (`wait=False`: call `ready()` later, so
    several services can load their model at once)."""

    def __init__(
        self,
        db: Path,
        *args: str,
        env: dict[str, str] | None = None,
        wait: bool = True,
        preexec_fn: Callable[[], None] | None = None,
        state_at: Path | None = None,
    ) -> None:
        self.db = db
        self.state_at = state_at or db  # what the state file is named after (Settings.service_path)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kgqa_cli.main", "--db", str(db), "serve", "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=service_env(**(env or {})),
            preexec_fn=preexec_fn,  # e.g. lower a resource limit of the service only
        )
        if wait:
            self.ready()

    def ready(self) -> Service:
        """Wait until the service has written its state file; its URL is then `self.url`."""
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while (state := read_state(self.state_at)) is None or state.pid != self.proc.pid:
            if self.proc.poll() is not None:
                raise AssertionError(f"kgqa serve exited {self.proc.returncode}: {self.proc.stderr.read()}")
            if time.monotonic() > deadline:
                self.stop()
                raise AssertionError("kgqa serve did not start in time")
            time.sleep(0.2)
        self.state = state
        self.url = state.url
        return self

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, raw: bytes | None = None
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        """(status, JSON reply, headers) of one request."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        return http_request(method, self.url + path, data, {"Authorization": f"Bearer {token}"} if token else {})

    def stop(self) -> int:
        """SIGTERM, wait for the drain (SIGKILL after 60 s); the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def http_request(
    method: str, url: str, data: bytes | None, headers: dict[str, str], timeout: float = 120
) -> tuple[int, dict[str, Any], dict[str, str]]:
    """(status, JSON reply, headers, lower-cased names) of one request; error statuses are replies too."""
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read()), {k.lower(): v for k, v in resp.headers.items()}
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), {k.lower(): v for k, v in exc.headers.items()}


def build_demo_db(path: Path, embedder: Any) -> Path:
    """The demo graph with its index at `path`, closed again (services and user processes open it)."""
    with Workspace.init(Settings(db_path=path), embedder=embedder) as ws:
        ws.load(demo_graph_path())
        ws.build_index(IndexParams(hub_types=("Paper",)))
    return path


def kgqa(db: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`kgqa --db DB ARGS...` as a process (its output captured)."""
    return subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", "--db", str(db), *args],
        capture_output=True,
        text=True,
        env=service_env(**env),
        timeout=600,
    )
