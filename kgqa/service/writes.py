"""Writes through the running service: `POST /v1/triples` adds and deletes triples (the CSV loader's
columns as JSON fields), then rebuilds the hubs they touched, so the next answer states the change: no
restart, no model reload (kgqa/service/pool.py `write`). `kgqa triples add|delete` beside a service send
their triple here (kgqa/service/client.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator

from kgqa.api import Workspace
from kgqa.graph.edits import triple_record
from kgqa.service.client import MAX_TRIPLES


class TripleItem(BaseModel):
    """One triple, as a row of the CSV loader: ids, and optionally labels, types and a literal object."""

    model_config = ConfigDict(extra="forbid", strict=True)

    subject: str = Field(min_length=1, max_length=2000)
    predicate: str = Field(min_length=1, max_length=2000)
    object: str = Field(min_length=1, max_length=20_000)
    subject_label: str | None = Field(None, max_length=20_000)
    object_label: str | None = Field(None, max_length=20_000)
    subject_types: list[str] = Field(default_factory=list, max_length=100)
    object_types: list[str] = Field(default_factory=list, max_length=100)
    object_is_literal: bool = False


class TriplesRequest(BaseModel):
    """`POST /v1/triples`: triples to add and to delete (applied in that order), and whether to rebuild the
    touched hubs at once (default: yes, so that answers follow the change)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    add: list[TripleItem] = Field(default_factory=list, max_length=MAX_TRIPLES)
    delete: list[TripleItem] = Field(default_factory=list, max_length=MAX_TRIPLES)
    update_index: bool = True

    @model_validator(mode="after")
    def _something(self) -> TriplesRequest:
        if not self.add and not self.delete:
            raise ValueError("give at least one triple in 'add' or 'delete'")
        return self


class IndexUpdateRequest(BaseModel):
    """`POST /v1/index/update`: `kgqa index update` through the service."""

    model_config = ConfigDict(extra="forbid", strict=True)

    dirty: bool = False


def update_index(ws: Workspace, req: IndexUpdateRequest) -> dict[str, Any]:
    """The index brought in step with the graph; what the update did."""
    report = ws.update_index(dirty=req.dirty)
    return {
        "mode": report.mode,
        "hubs_checked": report.hubs_checked,
        "hubs_rebuilt": report.hubs_rebuilt,
        "hubs_added": report.hubs_added,
        "hubs_removed": report.hubs_removed,
        "hubs": report.counts.hubs,
        "paths": report.counts.paths,
    }


def _record(item: TripleItem) -> Any:
    return triple_record(
        item.subject,
        item.predicate,
        item.object,
        literal=item.object_is_literal,
        subject_label=item.subject_label,
        subject_types=item.subject_types,
        object_label=item.object_label,
        object_types=item.object_types,
    )


def apply_triples(ws: Workspace, req: TriplesRequest) -> dict[str, Any]:
    """Add, delete, then (with an index and `update_index`) rebuild the dirty hubs; what was done."""
    adds = [_record(i) for i in req.add]  # every item checked before anything is written
    deletes = [_record(i) for i in req.delete]
    out: dict[str, Any] = {"added": 0, "entities_added": 0, "deleted": 0, "not_found": 0, "hubs_marked": 0}
    if adds:
        added = ws.add_triples(adds)
        out.update(added=added.triples_added, entities_added=added.entities_added, triples_total=added.triples_total)
        out["hubs_marked"] += added.hubs_marked
    if deletes:
        gone = ws.delete_triples([(r.subject.id, r.predicate, r.object.id) for r in deletes])
        out.update(deleted=gone.deleted, not_found=gone.not_found, triples_total=gone.triples_total)
        out["hubs_marked"] += gone.hubs_marked
    out["index"] = None
    if req.update_index and ws.index_status().info is not None:
        report = ws.update_index(dirty=True)
        out["index"] = {
            "hubs_rebuilt": report.hubs_rebuilt,
            "hubs_removed": report.hubs_removed,
            "dirty_hubs": len(ws.dirty_hubs()),
        }
    return out


def add_write_routes(
    app: FastAPI,
    auth: list[Any],
    write: Callable[[Callable[[Workspace], Any]], Awaitable[JSONResponse]],
) -> None:
    """POST /v1/triples; `write` runs the change with the pool to itself and turns errors into replies."""

    @app.post(
        "/v1/triples",
        dependencies=auth,
        summary="Add and delete triples, then rebuild the hubs they touched; answers follow at once.",
        responses={
            404: {"description": "An entity of a triple to delete does not exist."},
            409: {"description": "The index cannot be updated (built with another model, unusable)."},
            503: {"description": "The database is held by another process, or the service is busy."},
        },
    )
    async def triples(req: TriplesRequest) -> JSONResponse:
        return await write(lambda ws: apply_triples(ws, req))

    @app.post(
        "/v1/index/update",
        dependencies=auth,
        summary="Bring the index in step with the graph (`kgqa index update`; `dirty`: only the marked hubs).",
        responses={
            409: {"description": "No index to update, or one built with another model."},
            503: {"description": "The database is held by another process, or the service is busy."},
        },
    )
    async def index_update(req: IndexUpdateRequest) -> JSONResponse:
        return await write(lambda ws: update_index(ws, req))
