"""One Postgres connection (psycopg 3) with pgvector's types registered: named queries, binary COPY,
transactions and schema scripts. The only module that imports psycopg."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import psycopg
from psycopg import conninfo

from kgqa import assets
from kgqa.errors import ConfigError, SchemaError, StoreError, StoreUnavailableError
from kgqa.graph.store import Tracer
from kgqa.postgres.indexes import qualify

#: Schema scripts of `schema/postgres/` whose objects `drop_index_tables` removes.
INDEX_SCRIPT = "postgres/002_hub_index"


def redact(dsn: str) -> str:
    """The DSN without its password (for messages)."""
    try:
        parts = conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "<invalid DSN>"
    parts.pop("password", None)
    return conninfo.make_conninfo("", **{k: v for k, v in parts.items() if v is not None})


def with_database(dsn: str, dbname: str) -> str:
    """The same server and user, another database."""
    return conninfo.make_conninfo(dsn, dbname=dbname)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _shown(params: dict[str, Any] | None) -> dict[str, Any] | None:
    """Parameters for the tracer: vectors as their size only."""
    if params is None:
        return None
    return {
        k: f"<vector {len(v)}>"
        if isinstance(v, np.ndarray)
        else f"<{len(v)} vectors>"
        if isinstance(v, list) and v and isinstance(v[0], np.ndarray)
        else v
        for k, v in params.items()
    }


class PgDatabase:
    """A lazily opened connection to the Postgres database named by `dsn` (autocommit outside
    `transaction()`); on connect the `vector` extension is checked (created if allowed) and registered."""

    def __init__(
        self, dsn: str, *, schema: str = "kgqa", tracer: Tracer | None = None, connect_timeout: int = 10
    ) -> None:
        if not dsn or not dsn.strip():
            raise ConfigError("no Postgres DSN given: pass --pg-dsn, set KGQA_PG_DSN or run `kgqa pg start`")
        try:
            conninfo.conninfo_to_dict(dsn)
        except psycopg.ProgrammingError as exc:
            raise ConfigError(f"invalid Postgres DSN: {_first_line(exc)}") from None
        self.dsn = dsn
        self.schema = schema  # the index's schema: per-index objects of every query and script go there
        self.tracer = tracer
        self.connect_timeout = connect_timeout
        self._conn: psycopg.Connection | None = None
        self._depth = 0  # transaction() blocks open

    # -- connection ----------------------------------------------------------------------------
    @property
    def conn(self) -> psycopg.Connection:
        """The open connection (connected on first use)."""
        if self._conn is None or self._conn.closed:
            self._conn = self._connect()
        return self._conn

    def _connect(self) -> psycopg.Connection:
        try:
            conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=self.connect_timeout)
        except psycopg.Error as exc:
            raise StoreUnavailableError(
                f"cannot connect to Postgres ({redact(self.dsn)}): {_first_line(exc)}"
            ) from None
        try:
            self._setup(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _setup(self, conn: psycopg.Connection) -> None:
        """The per-connection setup: the `vector` extension present (created if this role may) and
        pgvector's types registered for numpy arrays."""
        from pgvector.psycopg import register_vector

        if conn.execute(assets.sql_query("vector_extension").text).fetchone() is None:
            try:
                conn.execute(assets.sql_query("create_vector_extension").text)
            except psycopg.Error as exc:
                db = conn.info.dbname
                raise SchemaError(
                    f"the Postgres database '{db}' has no `vector` extension (pgvector) and it cannot be "
                    f"created here: {_first_line(exc)}. Install pgvector on the server and run "
                    f"`CREATE EXTENSION vector;` in '{db}' as a superuser, or use `kgqa pg start`"
                ) from None
        register_vector(conn)

    @property
    def lost(self) -> bool:
        """Whether the connection was opened and then broke (the server restarted or went away)."""
        return self._conn is not None and self._conn.broken

    def ping(self) -> None:
        """One round trip to the server (`SELECT 1`); a StoreError saying why when it cannot be reached."""
        self.run("ping")

    def wait_notify(self, timeout: float) -> None:
        """Wait up to `timeout` seconds for one NOTIFY on a channel this connection LISTENs to."""
        try:
            for _ in self.conn.notifies(timeout=timeout, stop_after=1):
                pass
        except psycopg.Error as exc:
            raise StoreError(f"waiting for a notification failed: {_first_line(exc)}") from None

    def close(self) -> None:
        """Close the connection (it reopens on next use)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- named queries ---------------------------------------------------------------------------
    def _text(self, text: str) -> str:
        """A query or script with its per-index objects in this database's index schema."""
        return text if self.schema == "kgqa" else qualify(text, self.schema)

    def run(self, name: str, params: dict[str, Any] | None = None, *, binary: bool = False) -> list[tuple]:
        """Run the named query `sql/postgres/queries/<name>.sql` with bound parameters; all rows."""
        query = assets.sql_query(name)
        start = time.perf_counter()
        try:
            rows = self._execute(query.text, params, binary)
        except psycopg.OperationalError as exc:
            if not self._may_retry():
                lost = StoreUnavailableError if self.lost else StoreError
                raise lost(f"query {query.name} failed: {_first_line(exc)}") from None
            # the server went away since the last statement (a restart): one new connection, one retry
            self.close()
            try:
                rows = self._execute(query.text, params, binary)
            except psycopg.Error as again:
                raise StoreError(f"query {query.name} failed: {_first_line(again)}") from None
        except psycopg.Error as exc:
            raise StoreError(f"query {query.name} failed: {_first_line(exc)}") from None
        if self.tracer:
            self.tracer(query.name, _shown(params), time.perf_counter() - start)
        return rows

    def _execute(self, text: str, params: dict[str, Any] | None, binary: bool) -> list[tuple]:
        with self.conn.cursor(binary=binary) as cur:
            cur.execute(self._text(text), params)
            return cur.fetchall() if cur.description is not None else []

    def _may_retry(self) -> bool:
        """Whether a failed statement may run again on a new connection: the old one broke, and no
        transaction of this object was open on it (autocommit: the statement was one of its own)."""
        return self.lost and self._depth == 0

    def scalar(self, name: str, params: dict[str, Any] | None = None) -> Any:
        """The first column of the first row (None when there is no row)."""
        rows = self.run(name, params)
        return rows[0][0] if rows else None

    def copy(self, name: str, types: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
        """Bulk-load rows with the named binary `COPY ... FROM STDIN` statement; returns the row count."""
        query = assets.sql_query(name)
        start, n = time.perf_counter(), 0
        try:
            with self.conn.cursor() as cur, cur.copy(self._text(query.text)) as copy:
                copy.set_types(list(types))
                for row in rows:
                    copy.write_row(row)
                    n += 1
        except psycopg.Error as exc:
            raise StoreError(f"query {query.name} failed: {_first_line(exc)}") from None
        if self.tracer:
            self.tracer(query.name, {"rows": n}, time.perf_counter() - start)
        return n

    def copy_out(self, name: str) -> Iterator[bytes]:
        """The output of the named `COPY ... TO STDOUT` statement, in the chunks the server sends."""
        query = assets.sql_query(name)
        start, n = time.perf_counter(), 0
        try:
            with self.conn.cursor() as cur, cur.copy(self._text(query.text)) as copy:
                for chunk in copy:
                    n += len(chunk)
                    yield bytes(chunk)
        except psycopg.Error as exc:
            raise StoreError(f"query {query.name} failed: {_first_line(exc)}") from None
        if self.tracer:
            self.tracer(query.name, {"bytes": n}, time.perf_counter() - start)

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """A read-only transaction whose statements all see the database as it was at its first read."""
        with self.transaction():
            self.run("snapshot_read_only")
            yield

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All statements inside commit together or not at all (nested use joins the outer one)."""
        self._depth += 1
        try:
            with self.conn.transaction():
                yield
        finally:
            self._depth -= 1

    # -- scripts ---------------------------------------------------------------------------------
    def script(self, name: str, text: str, *, shared: bool = False) -> None:
        """Run a script of several statements (DDL; no parameters). `shared`: its objects are the shared
        `kgqa` schema's, so it runs as written rather than in this database's index schema."""
        start = time.perf_counter()
        try:
            self.conn.execute(text if shared else self._text(text))
        except psycopg.Error as exc:
            raise SchemaError(f"script {name} failed: {_first_line(exc)}") from None
        if self.tracer:
            self.tracer(name, None, time.perf_counter() - start)

    def schema_statement(self, name: str) -> None:
        """Run the named statement on this database's index schema (`{schema}`, composed as an identifier)."""
        from psycopg import sql

        query = assets.sql_query(name)
        try:
            self.conn.execute(sql.SQL(query.text).format(schema=sql.Identifier(self.schema)))
        except psycopg.Error as exc:
            raise SchemaError(f"query {query.name} failed: {_first_line(exc)}") from None

    def applied(self) -> set[str]:
        """Names of the schema and SQL scripts recorded in kgqa.schema_version."""
        if not self.scalar("schema_version_exists"):
            return set()
        return {r[0] for r in self.run("applied_scripts")}

    def apply_migrations(self, kind: str = "postgres", **structural: int) -> list[str]:
        """Apply the not-yet-applied scripts of `schema/<kind>/` in order, each recorded, atomically."""
        done = self.applied()
        pending = [(name, text) for name, text in assets.schema_scripts(kind) if name not in done]
        if not pending:  # nothing to do: no DDL, so a role without CREATE rights (a worker) gets here too
            return []
        applied = []
        with self.transaction():
            self.schema_statement("create_index_schema")
            for name, text in pending:
                self.script(name, assets.fill_tokens(name, text, **structural))
                self.run("record_script", {"name": name})
                applied.append(name)
        return applied
