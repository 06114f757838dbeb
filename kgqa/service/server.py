"""Running the service: open the workspaces, load the model, bind, serve with uvicorn until SIGTERM or
SIGINT, drain the requests in flight, remove the state file, return normally (exit code 0)."""

from __future__ import annotations

import ipaddress
import signal
import socket
from collections.abc import Callable
from typing import Any

from kgqa.config import Settings
from kgqa.errors import ConfigError, StoreBusyError, StoreError
from kgqa.processes import pid_alive
from kgqa.serve_state import check_state_dir, new_state, read_state, remove_state, state_path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8750
#: Seconds SIGTERM waits for requests in flight before cancelling them.
DRAIN_TIMEOUT_S = 60


def is_loopback(host: str) -> bool:
    """Whether `host` names the loopback interface."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (port 0: a free one), or a ConfigError saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def serve(
    settings: Settings,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    workers: int = 1,
    queue_size: int = 16,
    token: str | None = None,
    info: Callable[[str], None] = print,
) -> None:
    """Serve the database of `settings` until SIGTERM/SIGINT; returns after the drain."""
    import uvicorn  # the server stack is imported only by the command that runs it

    from kgqa.postgres.graph_refresh import start_graph_refresher
    from kgqa.service.app import create_app
    from kgqa.service.limits import uvicorn_limits
    from kgqa.service.pool import WorkspacePool

    if workers < 1:
        raise ConfigError(f"--workers must be >= 1, got {workers}")
    if queue_size < 0:
        raise ConfigError(f"--queue must be >= 0, got {queue_size}")
    running = read_state(settings.service_path)
    if running is not None and pid_alive(running.pid):
        raise StoreBusyError(
            f"a service already runs for {served(settings)} at {running.url} (pid {running.pid}); stop it first"
        )
    check_writable_dir(settings)
    pool = WorkspacePool(settings, workers, queue_size)
    try:
        info(f"loading the model ({settings.embedding_model}) ...")
        pool.warm_up()
        pool.prime()
        if (held := pool.held_note()) is not None:
            info(held)
        sock = bind(host, port)
    except BaseException:
        pool.close()
        raise
    try:
        queue_workers = start_queue_workers(settings, pool, workers, info)
        queue_workers += start_graph_refresher(settings, pool, info)  # the graph in Postgres: kept fresh
    except BaseException:
        sock.close()
        pool.close()
        raise
    bound = sock.getsockname()[1]
    state = new_state(settings.service_path, host, bound, token)
    if not is_loopback(host) and not token:
        info(
            f"warning: listening on {host} without a token: only requests to loopback host names are answered "
            "(Host: localhost or 127.0.0.1); use --token to serve others"
        )
    app = create_app(
        pool,
        token=token,
        state=state,
        on_ready=lambda: info(
            f"serving {served(settings)} at {state.url} ({workers} worker{'s' if workers > 1 else ''}, model loaded "
            f"in {pool.warm_up_s:.1f}s{', token required' if token else ''}); SIGTERM or Ctrl-C drains and stops"
        ),
    )
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=DRAIN_TIMEOUT_S,
        **uvicorn_limits(),
    )
    server = uvicorn.Server(config)
    # uvicorn re-raises the signal it stopped on once it has drained; a no-op handler makes that a
    # normal return, so a drained stop exits 0.
    previous = {sig: signal.signal(sig, lambda *_: None) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sock.close()
        for worker in queue_workers:
            worker.stop()
        pool.close()
        remove_state(settings.service_path, state.pid)


def served(settings: Settings) -> str:
    """What a service answers from, for its start line: the Kùzu file, or the index whose graph is in Postgres."""
    return (
        f"index '{settings.index_name}' (graph in Postgres)" if settings.graph == "postgres" else str(settings.db_path)
    )


def check_writable_dir(settings: Settings) -> None:
    """A StoreError naming the fix when the database's directory cannot be written (checked before the
    model loads): the service records where it listens in a state file beside the database, and the
    writes sent through it (POST /v1/triples) need Kùzu's write-ahead log there too."""
    try:
        check_state_dir(settings.service_path)
    except OSError as exc:
        folder = state_path(settings.service_path).parent
        raise StoreError(
            f"cannot serve {served(settings)}: its directory {folder} is not writable ({exc.strerror or exc}); "
            f"the service writes its state file {state_path(settings.service_path).name} there, and live updates "
            "write the database. Make the directory writable, or copy the database to a writable one; "
            "reading without a service works as it is (`kgqa ask` opens the database read-only)"
        ) from None


def start_queue_workers(settings: Settings, pool: Any, workers: int, info: Callable[[str], None]) -> list[Any]:
    """With the pgvector store and the queue installed (`kgqa sql install`): `workers` threads working
    the Postgres question queue of this index (CALL kgqa.ask); none otherwise."""
    if settings.store != "pgvector":
        return []
    from kgqa.postgres.database import PgDatabase
    from kgqa.postgres.server import resolve_dsn
    from kgqa.service.pg_queue import QueueWorker, ask_with

    dsn = resolve_dsn(settings)
    db = PgDatabase(dsn)
    try:
        installed = db.scalar("queue_installed")
    finally:
        db.close()
    if not installed:
        info("note: no Postgres question queue (run `kgqa sql install` for CALL kgqa.ask); HTTP only")
        return []
    started = []
    for _ in range(workers):
        worker = QueueWorker(dsn, settings.index_name, ask_with(pool.with_workspace), info=info)
        worker.start()
        started.append(worker)
    info(
        f"working the Postgres question queue of index '{settings.index_name}' ({workers} worker"
        f"{'s' if workers > 1 else ''})"
    )
    return started
