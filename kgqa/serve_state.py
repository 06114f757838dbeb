"""The state file beside the database (`<db>.serve.json`): where a running `kgqa serve` listens.

Written atomically once the service is ready, removed when it exits. It holds no secret: only whether
a token is required and a short hash of it (`token_hint`), so a client can tell whether its token fits.
Stdlib only: the CLI reads it on every `kgqa ask`."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

SUFFIX = ".serve.json"


@dataclass(frozen=True)
class ServiceState:
    """One running service, as recorded in its state file."""

    pid: int
    host: str
    port: int
    db_path: str
    started_at: float  # Unix time
    token_required: bool = False
    token_hint: str | None = None  # first 8 hex digits of the token's SHA-256

    @property
    def url(self) -> str:
        """The service's base URL."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


def state_path(db_path: str | os.PathLike[str]) -> Path:
    """Where the state file of the database at `db_path` lives."""
    return Path(os.path.abspath(db_path) + SUFFIX)


def token_hint(token: str | None) -> str | None:
    """A short, non-reversible hint of `token` (None without one)."""
    return hashlib.sha256(token.encode()).hexdigest()[:8] if token else None


def write_state(state: ServiceState) -> Path:
    """Write the state file of `state.db_path` atomically (a temp file renamed over it)."""
    path = state_path(state.db_path)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(asdict(state), f, indent=2)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def check_state_dir(db_path: str | os.PathLike[str]) -> None:
    """Raise the OSError that writing the state file of `db_path` would meet (a read-only directory), by
    creating and removing a temp file there; nothing is left behind."""
    path = state_path(db_path)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".probe", dir=path.parent)
    os.close(fd)
    os.unlink(tmp)


def read_state(db_path: str | os.PathLike[str]) -> ServiceState | None:
    """The recorded service of this database, or None (no file, or one that cannot be read)."""
    try:
        data = json.loads(state_path(db_path).read_text(encoding="utf-8"))
        return ServiceState(**data)
    except (OSError, ValueError, TypeError):
        return None


def remove_state(db_path: str | os.PathLike[str], pid: int | None = None) -> None:
    """Remove the state file, only if it is this process's (`pid`, default: the current one)."""
    state = read_state(db_path)
    if state is not None and state.pid == (pid or os.getpid()):
        state_path(db_path).unlink(missing_ok=True)


def new_state(db_path: str | os.PathLike[str], host: str, port: int, token: str | None) -> ServiceState:
    """The state of this process's service."""
    return ServiceState(
        pid=os.getpid(),
        host=host,
        port=port,
        db_path=os.path.abspath(db_path),
        started_at=time.time(),
        token_required=bool(token),
        token_hint=token_hint(token),
    )
