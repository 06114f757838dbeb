"""The ASGI app of `kgqa serve` (FastAPI): /v1/ask, /v1/retrieve, /v1/health, /v1/stats, /openapi.json.

Every reply is JSON. Library errors become status codes here (kgqa/service/errors.py); nothing a
request does can stop the service."""

from __future__ import annotations

import hmac
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from kgqa import __version__
from kgqa.api import Workspace
from kgqa.errors import EntityNotFoundError
from kgqa.retrieval.options import params_from_options
from kgqa.serve_state import ServiceState, remove_state, write_state
from kgqa.service.contract import error_responses
from kgqa.service.errors import error_reply, validation_reply
from kgqa.service.explore_routes import add_explore_routes
from kgqa.service.graph_view import MAX_NEIGHBOURS, entity_view, evidence_graph, find_entities
from kgqa.service.guard import add_host_guard
from kgqa.service.health import StoreProbe, add_health_routes
from kgqa.service.limits import BodyLimit
from kgqa.service.pool import PoolFullError, WorkspacePool
from kgqa.service.schema import AskRequest
from kgqa.service.stats import ServiceStats
from kgqa.service.writes import add_write_routes
from kgqa.types import Answer

#: What the service answers, for the message of a 404 or 405.
ENDPOINTS = (
    "POST /v1/ask, POST /v1/retrieve, POST /v1/triples, POST /v1/index/update, GET /v1/health, GET /v1/ready, "
    "GET /v1/live, GET /v1/stats, GET /openapi.json, "
    "GET /v1/entities/{id}/neighbours, GET /v1/search, GET /v1/paths, GET /v1/schema"
)
HTTP_ERROR_TYPES = {404: "NotFound", 405: "MethodNotAllowed"}
#: Seconds a client is asked to wait after a 503 (queue full).
RETRY_AFTER_S = 1
#: The web page and its vendored graph library (package data).
WEB = Path(__file__).resolve().parent / "web"
#: The endpoints that answer questions (counted in the stats, tagged `served_by`).
QUESTION_ENDPOINTS = ("ask", "retrieve")
#: Recent questions kept for the page's status panel.
RECENT = 20


class EvidenceRequest(BaseModel):
    """`POST /v1/evidence`: an answer's supporting triples (canonical strings)."""

    triples: list[str] = Field(max_length=10_000)
    hubs: list[str] = Field(
        default_factory=list, max_length=1_000, description="Hub roots: their shared entities join them."
    )
    topic: str | None = Field(None, max_length=500, description="The topic entity: joined to the hubs by short paths.")


class _Service:
    """What the routes share: the pool, the figures shown by /v1/stats, and `answer`, which runs work on
    the pool and turns every failure into a JSON reply."""

    def __init__(self, pool: WorkspacePool, state: ServiceState | None) -> None:
        self.pool, self.state = pool, state
        self.stats = ServiceStats()
        self.ws0 = pool.primary
        self.index = self.ws0.index_status()  # read-only between writes through the service (write)
        self.graph = self.ws0.stats()
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self.db_path = str(state.db_path if state else self.ws0.settings.service_path)
        self.probe = StoreProbe(self.ws0.settings)

    async def write(self, work: Callable[[Workspace], Any]) -> JSONResponse:
        """`work` on a writable workspace with the pool to itself (kgqa/service/writes.py); the figures of
        /v1/stats are read on that workspace before it closes. Its JSON, or the error reply."""

        def work_and_figures(ws: Workspace) -> tuple[Any, Any, Any]:
            return work(ws), ws.index_status(), ws.stats()

        try:
            body, self.index, self.graph = await self.pool.write(work_and_figures)
        except Exception as exc:  # every failure becomes a JSON reply, never a crash
            reply = error_reply(exc, question=False)
            self.stats.record_error(reply.status_code)
            return reply
        finally:
            if self.pool.open:
                self.ws0 = self.pool.primary  # the reopened workspaces (settings and model as before)
        return JSONResponse(body)

    async def answer(self, endpoint: str, work: Callable[[Workspace], Any]) -> JSONResponse:
        """`work` run on a pooled workspace: its JSON, 503 when the queue is full, the error reply else."""
        start = time.perf_counter()
        try:
            body = await self.pool.run(work)
        except PoolFullError as exc:
            self.stats.record_error(503)
            return JSONResponse(
                {"error": {"type": "Busy", "message": f"the service is busy ({exc}); retry after {RETRY_AFTER_S} s"}},
                status_code=503,
                headers={"Retry-After": str(RETRY_AFTER_S)},
            )
        except Exception as exc:  # every failure becomes a JSON reply, never a crash
            reply = error_reply(exc, question=endpoint in QUESTION_ENDPOINTS)
            self.stats.record_error(reply.status_code)
            return reply
        if endpoint not in QUESTION_ENDPOINTS:
            return JSONResponse(body)
        self.stats.record(endpoint, time.perf_counter() - start)
        return JSONResponse({**body, "served_by": "service"})


def create_app(
    pool: WorkspacePool,
    *,
    token: str | None = None,
    state: ServiceState | None = None,
    on_ready: Callable[[], None] | None = None,
) -> FastAPI:
    """The service over `pool`. `token`: bearer token required on every endpoint but /v1/health.
    `state`: written to the state file once serving starts and removed at shutdown (after the drain)."""
    svc = _Service(pool, state)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if state is not None:
            write_state(state)
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            if state is not None:
                remove_state(state.db_path, state.pid)
            svc.probe.close()
            pool.close()

    app = FastAPI(
        title="HubLink KGQA service",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,  # their pages load scripts from a CDN; the schema is enough
        description="Sourced answers from a knowledge graph: the `kgqa ask` options as JSON fields.",
        responses=error_responses(),  # every status the service may send, in its error shape
    )

    def authorise(request: Request) -> None:
        if token is None:
            return
        given = request.headers.get("authorization", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), token.encode()):
            raise _Unauthorised()

    auth = [Depends(authorise)]
    add_host_guard(app, token, lambda: svc.stats.record_error(403))
    app.add_middleware(BodyLimit)
    _add_error_handlers(app, svc)
    _add_question_routes(app, svc, auth)
    _add_graph_routes(app, svc, auth)
    add_explore_routes(app, svc.answer, auth)
    _add_status_routes(app, svc, auth)
    add_write_routes(app, auth, svc.write)
    return app


def _add_error_handlers(app: FastAPI, svc: _Service) -> None:
    """401, 400/404/405 and 422 in the service's one error shape, each counted."""

    @app.exception_handler(_Unauthorised)
    async def unauthorised(request: Request, exc: _Unauthorised) -> JSONResponse:
        svc.stats.record_error(401)
        return JSONResponse(
            {
                "error": {
                    "type": "Unauthorised",
                    "message": "a valid 'Authorization: Bearer <token>' header is required",
                }
            },
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # a body that cannot be decoded (400 from FastAPI), an unknown path (404) or method (405): the
        # same error shape as every other reply
        svc.stats.record_error(422 if exc.status_code == 400 else exc.status_code)
        if exc.status_code == 400:
            return validation_reply(
                [{"loc": ("body",), "msg": f"the request body is not valid UTF-8 JSON ({exc.detail})"}]
            )
        kind = HTTP_ERROR_TYPES.get(exc.status_code, "HTTPError")
        return JSONResponse(
            {
                "error": {
                    "type": kind,
                    "message": f"{request.method} {request.url.path}: {exc.detail}; the endpoints are {ENDPOINTS}",
                }
            },
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        svc.stats.record_error(422)
        return validation_reply(exc.errors())


def _ask_in(ws: Workspace, req: AskRequest) -> Answer:
    options = req.options()
    return ws.ask(
        req.question,
        params_from_options(options),
        llm=options.llm,
        retriever=options.retriever,
        token_budget=options.token_budget,
    )


def _add_question_routes(app: FastAPI, svc: _Service, auth: list[Any]) -> None:
    """POST /v1/ask and /v1/retrieve."""

    @app.post(
        "/v1/ask",
        dependencies=auth,
        summary="Answer a question; the reply is `kgqa ask --json`'s output plus served_by.",
    )
    async def ask(req: AskRequest) -> JSONResponse:
        answered: list[bool] = []

        def work(ws: Workspace) -> dict[str, Any]:
            a = _ask_in(ws, req)
            answered.append(bool(a.sources))  # only a question answered from sources is "recent"
            return a.as_dict()

        reply = await svc.answer("ask", work)
        if reply.status_code == 200 and answered == [True] and req.question.strip():
            svc.recent.appendleft({"question": req.question, "at": time.time()})
        return reply

    @app.post("/v1/retrieve", dependencies=auth, summary="Retrieve only: the supporting triples and the ranked hubs.")
    async def retrieve(req: AskRequest) -> JSONResponse:
        def work(ws: Workspace) -> dict[str, Any]:
            a = _ask_in(ws, req)
            return {"question": a.question, "triples": a.triples, "hubs": [h.as_dict() for h in a.hubs]}

        return await svc.answer("retrieve", work)


def _add_graph_routes(app: FastAPI, svc: _Service, auth: list[Any]) -> None:
    """The web page and what it draws: entities and the evidence graph of an answer."""

    @app.get(
        "/v1/entities/{entity_id}",
        dependencies=auth,
        summary="An entity, its types and its outgoing and incoming triples (at most `limit` each).",
    )
    async def entity(entity_id: str, limit: int = Query(50, ge=1, le=MAX_NEIGHBOURS)) -> JSONResponse:
        def work(ws: Workspace) -> dict[str, Any]:
            view = entity_view(ws.store, entity_id, limit)
            if view is None:
                raise EntityNotFoundError(f"no entity with id '{entity_id}'")
            return view

        return await svc.answer("entities", work)

    @app.get(
        "/v1/entities", dependencies=auth, summary="Entities whose id is `q` or whose label contains it (autocomplete)."
    )
    async def entities(
        q: str = Query(min_length=1, max_length=200), limit: int = Query(10, ge=1, le=100)
    ) -> JSONResponse:
        return await svc.answer("entities", lambda ws: find_entities(ws.store, q, limit))

    @app.post(
        "/v1/evidence",
        dependencies=auth,
        summary="Nodes and edges of supporting triples (canonical strings), for drawing.",
    )
    async def evidence(req: EvidenceRequest) -> JSONResponse:
        return await svc.answer("evidence", lambda ws: evidence_graph(ws.store, req.triples, req.hubs, req.topic))

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=WEB), name="static")


def _add_status_routes(app: FastAPI, svc: _Service, auth: list[Any]) -> None:
    """GET /v1/health, /v1/ready and /v1/live (open; kgqa/service/health.py) and /v1/stats."""
    pool = svc.pool

    add_health_routes(
        app,
        svc.probe,
        lambda: {
            "pid": svc.state.pid if svc.state else None,
            "db_path": svc.db_path,
            "store": svc.ws0.settings.store,
            "index": svc.index.info is not None,
            "in_flight": pool.in_flight,
        },
    )

    @app.get(
        "/v1/stats", dependencies=auth, summary="Index, model, uptime, questions answered and latency percentiles."
    )
    async def service_stats() -> dict[str, Any]:
        ws0, index, graph = svc.ws0, svc.index, svc.graph
        info = index.info
        return {
            "db_path": svc.db_path,
            "model": ws0.settings.embedding_model,
            "embedder": ws0.embedder.label,
            "store": ws0.settings.store,
            "graph": {
                "entities": graph.entities,
                "literals": graph.literals,
                "triples": graph.triples,
                "predicates": graph.predicates,
            },
            "recent": list(svc.recent),
            "index": None
            if info is None
            else {
                "status": info.status,
                "params": info.params,
                "dim": info.dim,
                "hubs": index.counts.hubs,
                "paths": index.counts.paths,
                "vectors": index.counts.vectors,
                "ann_index": index.ann_index,
                "dirty_hubs": index.dirty_hubs,
            },
            "workers": pool.workers,
            "queue": pool.queue_size,
            "in_flight": pool.in_flight,
            "model_load_s": round(pool.warm_up_s, 3),
            **svc.stats.as_dict(),
        }


class _Unauthorised(Exception):
    """The request lacks the bearer token."""
