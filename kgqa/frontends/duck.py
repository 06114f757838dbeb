"""A DuckDB session for `kgqa sql`: Python UDFs that answer questions (`kgqa_answer`, `kgqa_triples`,
`kgqa_rank_hubs`, `kgqa_answer_log`), the table macros of `sql/duckdb/` over them (`kgqa_ask`,
`kgqa_retrieve`, `kgqa_hubs`, `kgqa_answers`), and views over eval runs (JSON lines)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import UTC
from pathlib import Path
from typing import Any

import duckdb

from kgqa import assets
from kgqa.config import RetrievalParams, Settings
from kgqa.errors import InputError, KgqaError
from kgqa.frontends.service import QuestionService

_SOURCE = "STRUCT(n INTEGER, hub_id VARCHAR, label VARCHAR)"
_HUB = "STRUCT(rank INTEGER, hub_id VARCHAR, label VARCHAR, score DOUBLE, cited BOOLEAN)"
ANSWER_TYPE = (
    f"STRUCT(question VARCHAR, answer VARCHAR, sources {_SOURCE}[], triples VARCHAR[], "
    f"hubs {_HUB}[], strategy VARCHAR, mode VARCHAR, seconds DOUBLE, result VARCHAR)"
)
TRIPLES_TYPE = "STRUCT(rank INTEGER, triple VARCHAR)[]"
HUBS_TYPE = f"{_HUB}[]"
LOG_TYPE = (
    "STRUCT(id BIGINT, asked_at TIMESTAMP, question VARCHAR, answer VARCHAR, sources VARCHAR[], "
    "triples VARCHAR[], strategy VARCHAR, mode VARCHAR, seconds DOUBLE)[]"
)

#: Reads the answers log, newest first (None: no log is reachable from this session).
AnswerLog = Callable[[], list[dict[str, Any]]]


def _no_log() -> list[dict[str, Any]]:
    raise InputError("no answers log in this session: the log lives in Postgres; use --store pgvector or give --pg-dsn")


def install_functions(
    con: duckdb.DuckDBPyConnection,
    service: QuestionService,
    answer_log: AnswerLog | None,
    *,
    guard: Callable[[Callable[..., Any]], Callable[..., Any]] = lambda fn: fn,
) -> None:
    """Register the UDFs and the table macros of `sql/duckdb/` on `con` (replacing earlier ones)."""
    log = answer_log or _no_log

    def answer_log_rows() -> list[dict[str, Any]]:
        rows = log()
        for r in rows:  # DuckDB's TIMESTAMP is naive: UTC
            if getattr(r.get("asked_at"), "tzinfo", None) is not None:
                r["asked_at"] = r["asked_at"].astimezone(UTC).replace(tzinfo=None)
        return rows

    udfs: list[tuple[str, Callable[..., Any], list[str], str]] = [
        ("kgqa_answer", service.record, ["VARCHAR"], ANSWER_TYPE),
        ("kgqa_triples", service.triples, ["VARCHAR", "INTEGER"], TRIPLES_TYPE),
        ("kgqa_rank_hubs", service.hubs, ["VARCHAR", "INTEGER"], HUBS_TYPE),
        ("kgqa_answer_log", answer_log_rows, [], LOG_TYPE),
    ]
    for name, fn, params, returns in udfs:
        try:
            con.remove_function(name)
        except duckdb.Error:
            pass  # not registered yet
        con.create_function(name, guard(fn), list(params), returns, side_effects=True)
    for name, text in assets.sql_scripts("duckdb"):
        try:
            con.execute(text)
        except duckdb.Error as exc:
            raise InputError(f"{name}: {exc}") from exc


class DuckSession:
    """An in-memory DuckDB connection with the HubLink UDFs, macros and run views."""

    def __init__(
        self, service: QuestionService, *, answer_log: AnswerLog | None = None, runs: Sequence[str | Path] = ()
    ) -> None:
        self.service = service
        self.con = duckdb.connect()
        self._udf_error: KgqaError | None = None
        self._log = answer_log
        try:
            install_functions(self.con, service, answer_log, guard=self._guard)
            if runs:
                self.add_runs(runs)
        except BaseException:
            self.con.close()
            raise

    def _guard(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Keep a library error raised inside a UDF, so the statement fails with it (and its exit code)."""

        @functools.wraps(fn)  # DuckDB reads the arity from the signature
        def call(*args: Any) -> Any:
            try:
                return fn(*args)
            except KgqaError as exc:
                self._udf_error = exc
                raise

        return call

    def add_runs(self, paths: Sequence[str | Path]) -> None:
        """View `runs` over eval run files (JSON lines; columns unified by name, plus `filename`)."""
        missing = [str(p) for p in paths if not Path(p).is_file()]
        if missing:
            raise InputError(f"no such run file: {', '.join(missing)}")
        rel = self.con.sql(
            "SELECT * FROM read_json_auto($files, union_by_name = true, filename = true)",
            params={"files": [str(p) for p in paths]},
        )
        rel.create_view("runs", replace=True)

    def execute(self, sql: str) -> tuple[list[str], list[tuple]]:
        """Run SQL; returns the last statement's column names and rows (none for statements without)."""
        self._udf_error = None
        try:
            cur = self.con.execute(sql)
            if cur.description is None:
                return [], []
            return [d[0] for d in cur.description], cur.fetchall()
        except duckdb.Error as exc:
            if self._udf_error is not None:
                raise self._udf_error from None
            raise InputError(f"SQL error: {exc}") from None

    def close(self) -> None:
        """Close DuckDB, the answers log's connection and the service's workspace."""
        self.con.close()
        close_log = getattr(self._log, "close", None)
        if close_log is not None:
            close_log()
        self.service.close()


class PgAnswerLog:
    """The Postgres answers log of these settings, connected on first read."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._store: Any = None

    def __call__(self) -> list[dict[str, Any]]:
        if self._store is None:
            from kgqa.postgres.server import resolve_dsn
            from kgqa.vectorstores.pgvector_store import PgVectorHubStore

            self._store = PgVectorHubStore(resolve_dsn(self.settings), index=self.settings.index_name)
        return self._store.recent_answers(1000)

    def close(self) -> None:
        """Close the connection if one was opened."""
        if self._store is not None:
            self._store.close()


def open_sql_session(
    settings: Settings,
    params: RetrievalParams | None = None,
    *,
    llm: str = "offline",
    runs: Sequence[str | Path] = (),
    no_server: bool = False,
    note: Callable[[str], None] = lambda _: None,
) -> DuckSession:
    """A DuckDB session answering with the workspace of `settings` (opened on first question)."""
    from kgqa.api import Workspace
    from kgqa.frontends.connect import question_service

    # Questions go to a running `kgqa serve` of this database when there is one. Read-only: the session
    # never writes the graph, and so it runs beside the service or other readers.
    service = question_service(
        settings, lambda: Workspace(settings, read_only=True), params, llm=llm, use_service=not no_server, note=note
    )
    log = PgAnswerLog(settings) if settings.store == "pgvector" or settings.pg_dsn else None
    return DuckSession(service, answer_log=log, runs=runs)
