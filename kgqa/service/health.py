"""Liveness and readiness of the service: GET /v1/live (the process answers), GET /v1/ready and
GET /v1/health (it can answer: the index store is reachable). With the pgvector store, readiness asks
Postgres for one round trip; while Postgres is down it is 503 with the reason, and ok again once the
server is back (the store and the queue worker reconnect by themselves, docs/serve.md#restarts)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import anyio
from fastapi import FastAPI
from fastapi.responses import JSONResponse

from kgqa.config import Settings
from kgqa.errors import KgqaError

#: Seconds a readiness check may wait for Postgres to accept a connection.
PROBE_CONNECT_TIMEOUT_S = 2


class StoreProbe:
    """One round trip to the index store; None when it answers, else why not. Kùzu is in-process: always ok."""

    def __init__(self, settings: Settings) -> None:
        self._db: Any = None
        self._lock = threading.Lock()
        if settings.store == "pgvector":
            from kgqa.postgres.database import PgDatabase
            from kgqa.postgres.server import resolve_dsn

            self._db = PgDatabase(resolve_dsn(settings), connect_timeout=PROBE_CONNECT_TIMEOUT_S)

    def problem(self) -> str | None:
        """Why the store cannot answer now, or None."""
        if self._db is None:
            return None
        with self._lock:
            try:
                self._db.ping()
            except KgqaError as exc:
                self._db.close()
                return f"the Postgres index store is unreachable: {exc}"
        return None

    def close(self) -> None:
        """Close the probe's connection."""
        if self._db is not None:
            self._db.close()


def add_health_routes(app: FastAPI, probe: StoreProbe, describe: Callable[[], dict[str, Any]]) -> None:
    """GET /v1/live, /v1/ready and /v1/health (the last two the same check; `describe`: the fields of the
    reply). All open even when a token is set: they tell nothing about the graph."""

    async def ready() -> JSONResponse:
        problem = await anyio.to_thread.run_sync(probe.problem)
        body = {"status": "ok" if problem is None else "unavailable", **describe()}
        if problem is None:
            return JSONResponse(body)
        body["error"] = {"type": "StoreUnavailable", "message": problem}
        return JSONResponse(body, status_code=503, headers={"Retry-After": "1"})

    unavailable: dict[int | str, dict[str, Any]] = {
        503: {"description": "The index store (Postgres) cannot be reached; `error.message` says why."}
    }
    app.get(
        "/v1/health",
        summary="Readiness: ok when the service can answer (its index store is reachable), else 503 with the reason.",
        responses=unavailable,
    )(ready)
    app.get(
        "/v1/ready", summary="Readiness (the same check as /v1/health), for load balancers.", responses=unavailable
    )(ready)

    @app.get("/v1/live", summary="Liveness: the process answers HTTP (nothing is checked beyond that).")
    async def live() -> dict[str, Any]:
        return {"status": "ok"}
