"""HubLink on your own Kùzu connection:

    import kuzu
    from kgqa.frontends import kuzu as kgqa_kuzu
    conn = kuzu.Connection(kuzu.Database("graph.kuzu"))
    kgqa_kuzu.register(conn)
    conn.execute("RETURN kgqa_answer('Which papers were published at ICSA in 2019?')")

Questions go to a running `kgqa serve` for that database when there is one (then open your database
read-only: the service holds it), else to a workspace on a second connection to your own
`kuzu.Database` (Kùzu lets one process open a database for writing; this shares yours)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import kuzu
from kgqa_procedures.udfs.retrieval import register_retrieval_udfs

from kgqa.config import RetrievalParams
from kgqa.errors import StoreError
from kgqa.frontends.connect import front_end_settings, question_service
from kgqa.frontends.service import QuestionService


class _UserConnection:
    """The user's connection as the UDF registry of kgqa_procedures expects it."""

    def __init__(self, conn: kuzu.Connection) -> None:
        self.conn = conn

    def register_function(self, name: str, func: Callable[..., Any], params: list[str], returns: str) -> None:
        try:
            self.conn.remove_function(name)
        except RuntimeError:
            pass  # not registered yet
        try:
            self.conn.create_function(name, func, list(params), returns)
        except RuntimeError as exc:
            raise StoreError(f"cannot register UDF {name}: {exc}") from exc


def register(
    conn: kuzu.Connection,
    db: str | os.PathLike[str] | None = None,
    *,
    store: str | None = None,
    pg_dsn: str | None = None,
    index: str | None = None,
    params: RetrievalParams | None = None,
    llm: str = "offline",
    use_service: bool = True,
) -> QuestionService:
    """Add kgqa_answer, kgqa_result, kgqa_sources, kgqa_retrieve (triples), kgqa_hubs and the older
    names to `conn`. `db` defaults to the connection's own database path. Returns the question service."""
    from kgqa.api import Workspace
    from kgqa.graph.store import GraphStore

    database = conn.database
    settings = front_end_settings(db or database.database_path, store=store, pg_dsn=pg_dsn, index=index)

    def open_workspace() -> Workspace:
        return Workspace(settings, graph=GraphStore.attach(database))

    service = question_service(settings, open_workspace, params, llm=llm, use_service=use_service)
    register_retrieval_udfs(_UserConnection(conn), service)
    return service
