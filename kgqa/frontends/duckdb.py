"""HubLink on your own DuckDB connection:

    import duckdb
    from kgqa.frontends import duckdb as kgqa_duckdb
    con = duckdb.connect()
    kgqa_duckdb.register(con, db="graph.kuzu")
    con.sql("SELECT answer FROM kgqa_ask('Which papers were published at ICSA in 2019?')")

Questions go to a running `kgqa serve` for that database when there is one, else to a read-only
workspace opened in this process on first use (docs/databases.md)."""

from __future__ import annotations

import os
from typing import Any

import duckdb

from kgqa.config import RetrievalParams
from kgqa.frontends.connect import front_end_settings, question_service
from kgqa.frontends.duck import PgAnswerLog, install_functions
from kgqa.frontends.service import QuestionService


def register(
    con: duckdb.DuckDBPyConnection,
    db: str | os.PathLike[str] | None = None,
    *,
    store: str | None = None,
    pg_dsn: str | None = None,
    index: str | None = None,
    params: RetrievalParams | None = None,
    llm: str = "offline",
    use_service: bool = True,
) -> QuestionService:
    """Add `kgqa_ask`, `kgqa_retrieve`, `kgqa_hubs`, `kgqa_answers` (table macros) and the UDFs behind
    them to `con`. Returns the question service (close it to release an in-process workspace)."""
    from kgqa.api import Workspace

    settings = front_end_settings(db, store=store, pg_dsn=pg_dsn, index=index)
    service = question_service(
        settings, lambda: Workspace(settings, read_only=True), params, llm=llm, use_service=use_service
    )
    log: Any = PgAnswerLog(settings) if settings.store == "pgvector" else None
    install_functions(con, service, log)
    return service
