"""The explore endpoints of `kgqa serve`: a page of an entity's neighbours, entity search over resources and
literals, shortest paths between two entities and the schema. The graph reads live in kgqa/graph/explore.py;
here the parameters are validated (a bad one is a 422 naming it) and the results turned into JSON."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from fastapi import FastAPI, Query
from fastapi.responses import JSONResponse

from kgqa.api import Workspace
from kgqa.graph import explore
from kgqa.types import Entity, Triple

#: Runs work on a pooled workspace and turns every failure into the service's JSON error reply.
Runner = Callable[[str, Callable[[Workspace], Any]], Awaitable[JSONResponse]]


def node_json(e: Entity) -> dict[str, Any]:
    """An entity as the page draws it."""
    return {"id": e.id, "label": e.label or e.id, "literal": e.is_literal, "types": list(e.types)}


def triple_json(t: Triple) -> dict[str, Any]:
    """A triple: its ends, predicate and canonical string."""
    return {
        "source": t.subject.id,
        "target": t.object.id,
        "predicate": t.predicate,
        "triple": t.canonical,
        "nodes": [node_json(t.subject), node_json(t.object)],
    }


def neighbour_page_json(page: explore.NeighbourPage) -> dict[str, Any]:
    """A page of neighbours with the counts per predicate and the paging figures."""
    return {
        "entity": node_json(page.entity),
        "counts": [{"direction": d, "predicate": p, "count": n} for d, p, n in page.counts],
        "total": page.total,
        "offset": page.offset,
        "more": page.more,
        "neighbours": [
            {
                "predicate": n.predicate,
                "direction": n.direction,
                "node": node_json(n.node),
                "source": page.entity.id if n.direction == "out" else n.node.id,
                "target": n.node.id if n.direction == "out" else page.entity.id,
            }
            for n in page.neighbours
        ],
    }


def add_explore_routes(app: FastAPI, answer: Runner, auth: list[Any]) -> None:
    """GET /v1/entities/{id}/neighbours, /v1/search, /v1/paths, /v1/schema and /v1/schema/triples."""

    @app.get(
        "/v1/entities/{entity_id}/neighbours",
        dependencies=auth,
        summary="One page of an entity's neighbours (outgoing first, then incoming) and the counts per predicate.",
        description=f"At most {explore.MAX_PAGE} neighbours a page; `more` says whether another page exists "
        "(ask again with `offset` + `limit`). A `predicate` limits the page (not the counts) to that predicate.",
    )
    async def neighbours(
        entity_id: str,
        predicate: str = Query("", max_length=500, description="Only this predicate ('' = all)."),
        direction: Literal["out", "in", "both"] = Query("both", description="out, in or both."),
        offset: int = Query(0, ge=0, le=10_000_000, description="Neighbours to skip."),
        limit: int = Query(25, ge=1, le=explore.MAX_PAGE, description="Neighbours in this page."),
    ) -> JSONResponse:
        def work(ws: Workspace) -> dict[str, Any]:
            page = explore.neighbours(
                ws.store, entity_id, predicate=predicate, direction=direction, offset=offset, limit=limit
            )
            return neighbour_page_json(page)

        return await answer("explore", work)

    @app.get(
        "/v1/search",
        dependencies=auth,
        summary="Entities, resources and literals alike, whose id is `q` or whose label contains it, of `type`.",
    )
    async def search(
        q: str = Query("", max_length=200, description="Text in the label, or an id ('' with a type: any)."),
        type_: str = Query("", alias="type", max_length=200, description="Only entities of this type."),
        limit: int = Query(10, ge=1, le=explore.MAX_PAGE),
    ) -> JSONResponse:
        return await answer(
            "explore",
            lambda ws: [node_json(e) for e in explore.search_entities(ws.store, q.strip(), type_=type_, limit=limit)],
        )

    @app.get(
        "/v1/paths",
        dependencies=auth,
        summary="The shortest paths between two entities (triples in either direction), as lists of triples.",
        description=f"A bidirectional breadth-first search, one query per level; `max_depth` at most "
        f"{explore.MAX_PATH_DEPTH}, each level reads at most {explore.MAX_LEVEL_ROWS} triples per direction "
        f"and at most {explore.MAX_PATHS} paths are returned (`truncated` says when a cap cut the search).",
    )
    async def paths(
        source: str = Query(min_length=1, max_length=500, description="Entity id the paths start from."),
        target: str = Query(min_length=1, max_length=500, description="Entity id the paths end at."),
        max_depth: int = Query(3, ge=1, le=explore.MAX_PATH_DEPTH, description="Longest path, in triples."),
        max_paths: int = Query(10, ge=1, le=explore.MAX_PATHS, description="Paths returned at most."),
    ) -> JSONResponse:
        def work(ws: Workspace) -> dict[str, Any]:
            found = explore.shortest_paths(ws.store, source, target, max_depth=max_depth, max_paths=max_paths)
            return {
                "source": node_json(found.source),
                "target": node_json(found.target),
                "max_depth": found.max_depth,
                "depth": found.depth,
                "truncated": found.truncated,
                "paths": [[triple_json(t) for t in p] for p in found.paths],
            }

        return await answer("explore", work)

    @app.get("/v1/schema", dependencies=auth, summary="The graph's types and predicates with their counts.")
    async def schema(
        limit: int = Query(100, ge=1, le=explore.MAX_SCHEMA_ROWS, description="Types and predicates listed at most."),
    ) -> JSONResponse:
        def work(ws: Workspace) -> dict[str, Any]:
            s = explore.schema(ws.store, limit)
            return {
                "types": [{"type": t, "count": n} for t, n in s.types],
                "predicates": [{"predicate": p, "count": n} for p, n in s.predicates],
                "type_count": s.type_count,
                "predicate_count": s.predicate_count,
                "untyped_resources": s.untyped,
            }

        return await answer("explore", work)

    @app.get("/v1/schema/triples", dependencies=auth, summary="One page of the triples of one predicate.")
    async def predicate_triples(
        predicate: str = Query(min_length=1, max_length=500),
        offset: int = Query(0, ge=0, le=10_000_000),
        limit: int = Query(25, ge=1, le=explore.MAX_PAGE),
    ) -> JSONResponse:
        return await answer(
            "explore",
            lambda ws: [
                triple_json(t) for t in explore.triples_of_predicate(ws.store, predicate, offset=offset, limit=limit)
            ],
        )
