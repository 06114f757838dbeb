"""The one module that owns the Kùzu database and connection (the only importer of kuzu)."""

from __future__ import annotations

import copy
import json
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import kuzu

from kgqa import assets
from kgqa.errors import (
    NotInitialisedError,
    PageCacheFullError,
    SchemaError,
    StorageFullError,
    StoreBusyError,
    StoreError,
)
from kgqa.graph.buffer_pool import buffer_pool_bytes
from kgqa.graph.key_reads import cheaper_by_key
from kgqa.graph.own_prefix import upgrade_prefix
from kgqa.graph.readers import ReaderPool
from kgqa.memory import KUZU_CHECKPOINT_BYTES, MIB, MIN_POOL, MemoryCeiling

Tracer = Callable[[str, dict[str, Any] | None, float], None]

_LOCK_MARKERS = ("Could not set lock", "lock on file", "database is locked")
#: Kùzu's IOException texts when a write to its files fails (a full disk, RLIMIT_FSIZE, a quota).
_WRITE_FAILED_MARKERS = ("Cannot write to file", "No space left on device", "File too large", "Disk quota exceeded")
#: grow_buffer_pool reopens the database only when the cache it would size now is this much larger.
GROWTH_TO_REOPEN = 1.25
#: Seconds per stored row that a query planned as a scan of the Entity or Triple table spends (`by_key`:
#: bench/results/lookups.md measures the vector tables at 0.2-0.4 µs a row; the graph tables' joins
#: measured 0.5-2 µs a row on the 10^5 scale graph).
GRAPH_SCAN_ROW_S = 0.5e-6


def _query_error(name: str, exc: RuntimeError) -> StoreError:
    """The typed error for a query Kùzu failed: busy (another process holds the lock), or failed, with
    a hint when the page cache was full."""
    if any(m in str(exc) for m in _LOCK_MARKERS):
        return StoreBusyError(f"{name}: database busy: {exc}")
    if any(m in str(exc) for m in _WRITE_FAILED_MARKERS):
        return StorageFullError(
            f"cannot write the database ({name}): the disk is full or a file size limit was reached; this "
            "step was rolled back and what was committed before stays. Free some space and run the command "
            f"again (an interrupted load or index build resumes where it stopped). Kùzu said: {exc}"
        )
    hint = (
        (
            "; Kùzu's page cache is too small for this database: set --memory / KGQA_MEMORY (or KGQA_BUFFER_POOL_MIB) higher "
            "(an interrupted index build resumes where it stopped)"
        )
        if "buffer pool is full" in str(exc)
        else ""
    )
    if hint:
        return PageCacheFullError(f"query {name} failed: {exc}{hint}")
    return StoreError(f"query {name} failed: {exc}")


def stderr_tracer(name: str, params: dict[str, Any] | None, seconds: float) -> None:
    """Print a query's name, its parameters (vectors and long lists truncated) and its time."""
    shown = {k: _short(v) for k, v in (params or {}).items()}
    print(f"[trace] {name} {seconds * 1000:.1f} ms {shown}", file=sys.stderr)


def _short(value: Any) -> Any:
    if isinstance(value, list):
        if len(value) > 4:
            return f"[{len(value)} items: {_short(value[0])!r}, ...]"
        return [_short(v) for v in value]
    if isinstance(value, str) and len(value) > 80:
        return value[:77] + "..."
    return value


class GraphStore:
    """An open HubLink database in embedded Kùzu: named queries, transactions, UDFs, metadata."""

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = False,
        read_only: bool = False,
        tracer: Tracer | None = None,
        buffer_pool_mib: int | None = None,
        memory: MemoryCeiling | None = None,
    ) -> None:
        """Open (or with `create`, create) the database. Kùzu's page cache is sized from the
        database and the machine (kgqa/graph/buffer_pool.py), within the page cache's share of the
        memory ceiling `memory` (default: kgqa/memory.py's); `buffer_pool_mib` sets it instead."""
        self.path = Path(path)
        self.memory = memory or MemoryCeiling.default()
        self.tracer = tracer
        self.read_only = read_only
        if not self.path.exists():
            if not create:
                raise NotInitialisedError(f"no HubLink database at {self.path}; run `kgqa init --db {self.path}` first")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"cannot create the database {self.path}: {exc.strerror or exc} "
                    f"({exc.filename or self.path.parent})"
                ) from None
        self._pool_override = buffer_pool_mib
        self._open(self._pool_size())
        self._in_tx = False
        self._extensions: set[str] = set()
        self._udfs: set[str] = set()
        self._prepared: dict[tuple[Any, ...], Any] = {}
        self._rows: dict[str, int] = {}
        self._owns_db = True
        self._readers: ReaderPool | None = None
        try:
            upgrade_prefix(self)  # a database of an earlier release: its own tables get the kgqa_ prefix
        except SchemaError:
            self.close()
            raise
        if create and not read_only and not self._holds_own_graph():
            self.apply_migrations("graph")
        else:
            self._check_graph()

    # -- queries ---------------------------------------------------------------------------
    def run(
        self,
        name: str,
        params: dict[str, Any] | None = None,
        names: dict[str, assets.CatalogName] | None = None,
        **structural: int,
    ) -> list[list[Any]]:
        """Run the named Cypher query with bound parameters (and catalog `names` spliced, for the
        queries that read a user's own tables); return all rows."""
        query = assets.cypher_on(name, names) if names is not None else assets.cypher(name, **structural)
        return self._execute(query.name, query.text, params)

    def run_iter(self, name: str, params: dict[str, Any] | None = None, **structural: int) -> Iterator[list[Any]]:
        """Like `run`, yielding rows as they are read."""
        query = assets.cypher(name, **structural)
        result = self._raw(query.name, query.text, params)
        while result.has_next():
            yield result.get_next()

    def run_columns(self, name: str, params: dict[str, Any] | None = None, **structural: int) -> list[list[Any]]:
        """Like `run`, but column by column (read through Arrow: much faster for many rows)."""
        table = self.run_arrow(name, params, **structural)
        return [table.column(i).to_pylist() for i in range(table.num_columns)]

    def run_arrow(self, name: str, params: dict[str, Any] | None = None, **structural: int) -> Any:
        """Like `run`, but the result as one Arrow table (for columns read into numpy arrays)."""
        query = assets.cypher(name, **structural)
        return self._raw(query.name, query.text, params).get_as_arrow(chunk_size=1_000_000)

    def run_each(
        self, name: str, key: str, values: list[Any], params: dict[str, Any] | None = None, **structural: int
    ) -> list[list[Any]]:
        """Run a named query once per value of parameter `key` (prepared once per connection), and
        return all rows. For lookups by primary key: Kùzu 0.11.3 answers `{key: $value}` from its hash
        index, but plans `WHERE key IN $list` and `UNWIND $list ... {key: x}` as scans of the whole
        table, whose cost grows with the database. A read-only store splits the values between its
        reader connections (kgqa/graph/readers.py)."""
        batches = self.run_many(name, [{**(params or {}), key: value} for value in values], **structural)
        return [row for rows in batches for row in rows]

    def run_many(self, name: str, param_sets: list[dict[str, Any]], **structural: int) -> list[list[list[Any]]]:
        """Run a named query once per parameter set (prepared once per connection); the rows of each
        run, in order. On a read-only store the runs are split between reader connections that read
        at the same time (kgqa/graph/readers.py); otherwise they run one after another."""
        start = time.perf_counter()

        def run(conn: Any, index: int, values: dict[str, Any]) -> list[list[Any]]:
            prepared = self._prepared_on(conn, index, name, structural)
            try:
                result = conn.execute(prepared, values)
            except RuntimeError as exc:
                raise _query_error(name, exc) from exc
            if isinstance(result, list):
                raise StoreError(f"query {name} must be one statement")
            rows = []
            while result.has_next():
                rows.append(list(result.get_next()))
            return rows

        if self.read_only and not self._in_tx and not self._udfs and len(param_sets) > 1:  # UDFs: this connection's
            batches = self._reader_pool().map(run, param_sets)
        else:
            batches = [run(self._conn, 0, values) for values in param_sets]
        if self.tracer:
            self.tracer(
                f"{name} x{len(param_sets)}",
                param_sets[0] if param_sets else None,
                time.perf_counter() - start,
            )
        return batches

    def _reader_pool(self) -> ReaderPool:
        """The reader connections of this read-only store (made at the first batch, after its extensions)."""
        if self._readers is None:
            self._readers = ReaderPool(self._db, self._conn)
        return self._readers

    def _prepared_on(self, conn: Any, index: int, name: str, structural: dict[str, int]) -> Any:
        """The named query prepared on reader connection `index` (0: the store's own), once each."""
        cache_key = (name, tuple(sorted(structural.items())), index)
        prepared = self._prepared.get(cache_key)
        if prepared is None:
            if index:
                for ext in sorted(self._extensions):  # loaded per connection
                    self._load_on(conn, ext)
            prepared = self._prepared[cache_key] = self._prepare_on(conn, name, **structural)
        return prepared

    def by_key(self, keys: int, per_key_s: float, table: str) -> bool:
        """Whether `keys` single-key queries (`run_each`, `per_key_s` each) cost less than one query
        over a list of keys, which Kùzu 0.11.3 plans as a scan of `table` ("Entity" or "Triple"). The
        table's size is counted once and again after each committed transaction."""
        rows = self._rows.get(table)
        if rows is None:
            count = "graph/count_entities" if table == "Entity" else "graph/count_triples"
            rows = self._rows[table] = int(self.run(count)[0][0])
        return cheaper_by_key(keys, per_key_s, rows, GRAPH_SCAN_ROW_S)

    def run_with_table(self, name: str, table: object, **structural: int) -> list[list[Any]]:
        """Run a named query that reads the Arrow table `table` through `LOAD FROM kgqa_rows`
        (Kùzu resolves the name from the caller's frame; bulk rows without per-value binding);
        return its rows."""
        query = assets.cypher(name, **structural)
        kgqa_rows = table  # noqa: F841 - read by Kùzu's scan replacement
        return self._execute(query.name, query.text, None)

    def query(self, text: str, params: dict[str, Any] | None = None) -> tuple[list[str], list[list[Any]]]:
        """Run a user's Cypher statement (e.g. `kgqa cypher -c`); returns column names and rows."""
        result = self._raw("user query", text, params)
        results = result if isinstance(result, list) else [result]
        columns: list[str] = []
        rows: list[list[Any]] = []
        for res in results:  # several statements: the last one's rows are shown
            columns, rows = res.get_column_names(), []
            while res.has_next():
                rows.append(res.get_next())
        return columns, rows

    @classmethod
    def attach(cls, db: kuzu.Database, *, tracer: Tracer | None = None) -> GraphStore:
        """A store on its own new connection to a Kùzu database someone else opened (e.g. the user's
        `kuzu.Database` in this process); closing it leaves that database open."""
        store = cls.__new__(cls)
        store.path, store.tracer = Path(db.database_path), tracer
        store.read_only = bool(getattr(db, "read_only", False))
        store._db, store._conn = db, kuzu.Connection(db)
        store._in_tx, store._extensions, store._udfs, store._owns_db = False, set(), set(), False
        store._prepared, store._rows, store._readers = {}, {}, None
        try:
            upgrade_prefix(store)
            store._check_graph()
        except (NotInitialisedError, SchemaError):
            store._conn.close()
            raise
        return store

    def _holds_own_graph(self) -> bool:
        """True when the database holds a user's own node tables and no HubLink triple tables (then
        HubLink creates no graph tables in it, even when asked to create the database)."""
        from kgqa.graph.mapping import OWN_TABLES

        names = {r[1] for r in self.catalog("show_tables") if r[2] == "NODE"}
        return "Entity" not in names and any(n not in OWN_TABLES for n in names)

    def _check_graph(self) -> None:
        """NotInitialisedError unless the database holds a graph: HubLink's triple layout (an
        Entity table) or the user's own node tables (a property graph read in place)."""
        from kgqa.graph.mapping import OWN_TABLES

        tables = [r for r in self.catalog("show_tables") if r[2] == "NODE"]
        if any(r[1] == "Entity" for r in tables) or any(r[1] not in OWN_TABLES for r in tables):
            return
        raise NotInitialisedError(
            f"{self.path} holds no graph (no Entity table and no node table of its own); "
            f"run `kgqa init --db {self.path}` and `kgqa load`, or create your node tables with Cypher"
        )

    def catalog(self, call: str, table: str | None = None) -> list[list[Any]]:
        """Rows of a catalog call: `show_tables` (id, name, type, ...), `table_info` (property id,
        name, type, default, primary key) or `show_connection` (from, to, ...) of `table`, a name
        the catalog listed (checked: no quote in it)."""
        if call not in ("show_tables", "table_info", "show_connection"):
            raise StoreError(f"unknown catalog call {call}")
        if call == "show_tables":
            return self._execute(call, "CALL show_tables() RETURN *", None)
        if not table or "'" in table or "\\" in table:
            raise StoreError(f"catalog call {call} needs a plain table name, got {table!r}")
        return self._execute(call, f"CALL {call}('{table}') RETURN *", None)

    def _open(self, pool_bytes: int) -> None:
        """Open the database with a page cache of `pool_bytes`, and a connection to it."""
        try:
            self._db = kuzu.Database(str(self.path), read_only=self.read_only, buffer_pool_size=pool_bytes)
            self._conn = kuzu.Connection(self._db)
        except RuntimeError as exc:  # kuzu raises RuntimeError for lock and IO problems
            if any(m in str(exc) for m in _LOCK_MARKERS):
                from kgqa.graph.holder import describe_holder

                raise StoreBusyError(
                    f"database busy: {self.path} is open in another process ({describe_holder(self.path)}; "
                    "Kùzu lets one process at a time open it for writing); try again when it has finished"
                ) from exc
            if any(m in str(exc) for m in _WRITE_FAILED_MARKERS):
                raise _query_error(f"opening {self.path}", exc) from exc
            raise StoreError(f"cannot open database {self.path}: {exc}") from exc
        self.pool_bytes = pool_bytes

    @property
    def pool_fixed(self) -> bool:
        """Whether the page cache's size was set (KGQA_BUFFER_POOL_MIB) rather than sized here."""
        return bool(self._pool_override)

    def _pool_size(self) -> int:
        """The page cache to open the database with now (kgqa/graph/buffer_pool.py), within the ceiling."""
        return buffer_pool_bytes(
            self.path, read_only=self.read_only, override_mib=self._pool_override, cap=self.memory.pool_bytes
        )

    @property
    def _reopenable(self) -> bool:
        """This store opened the database (a user's own is theirs) and no transaction is open."""
        return self._owns_db and not self._in_tx

    @property
    def resizable(self) -> bool:
        """Whether this store may reopen its database with another page cache: it opened the database
        for writing, the cache's size was not set (KGQA_BUFFER_POOL_MIB), and no transaction is open."""
        return self._reopenable and not self.read_only and not self._pool_override

    def grow_buffer_pool(self) -> bool:
        """Reopen the database with the page cache sized for its size now, when that is larger than
        the cache it was opened with: an index build grows the database from its size at open, and
        Kùzu 0.11.3 builds the HNSW index with the vectors in the cache (a 10^6-triple index stopped
        there with the cache sized for the empty index). Not when the size was set
        (KGQA_BUFFER_POOL_MIB), inside a transaction, or on a database this store did not open.
        True when it reopened; UDFs and extensions are registered again on their next use."""
        if not self._reopenable or self._pool_override:
            return False
        wanted = self._pool_size()
        if wanted <= self.pool_bytes * GROWTH_TO_REOPEN:
            return False
        self._reopen(wanted)
        return True

    @contextmanager
    def page_cache(self, nbytes: int) -> Iterator[None]:
        """While the block runs, the database is open with a page cache of `nbytes` (a build's HNSW
        step, which may take the room the embedding model and the write batches had); then with the
        cache sized as at open again, which also gives the block's cache back to the system. Nothing
        changes when the store is not `resizable` or the cache is that size already."""
        if not self.resizable or nbytes == self.pool_bytes:
            yield
            return
        self._reopen(nbytes)
        try:
            yield
        finally:
            if not self._in_tx:
                self._reopen(self._pool_size())

    def reopen(self) -> bool:
        """Close the database and open it again with the same page cache (Kùzu 0.11.3 keeps some state
        of a failed CREATE_VECTOR_INDEX on the open table); False, doing nothing, on a database this
        store did not open or inside a transaction."""
        if not self._reopenable:
            return False
        self._reopen(self.pool_bytes)
        return True

    @contextmanager
    def side_reader(self, pool_bytes: int) -> Iterator[Callable[..., Any]]:
        """For a long read-only scan: a second read-only handle on this database with a page cache of
        its own (`pool_bytes`), yielding its `run_arrow`; closed after the block, which gives back all it
        held. Only on a database opened read-only (a writer locks it)."""
        if not self.read_only:
            raise StoreError(f"a side reader needs {self.path} opened read-only")
        db = kuzu.Database(str(self.path), read_only=True, buffer_pool_size=pool_bytes)
        try:
            side = GraphStore.attach(db, tracer=self.tracer)
            try:
                yield side.run_arrow
            finally:
                side.close()
        finally:
            db.close()

    def resize_page_cache(self, nbytes: int) -> bool:
        """Reopen the database with a page cache of `nbytes` (a read-only service that holds the index's
        vectors in memory gives them part of the cache's share of the memory ceiling). False, doing
        nothing, where the cache is `page_cache_fixed` or that size already."""
        if self.page_cache_fixed or nbytes == self.pool_bytes:
            return False
        self._reopen(nbytes)
        return True

    def give_room(self, nbytes: int) -> bool:
        """Shrink the page cache so that it and `nbytes` held beside it in this process (an index kept in
        memory) fit the cache's share of the memory ceiling; False where that would leave it under
        MIN_POOL or its size is fixed (then the caller holds nothing)."""
        if self.page_cache_fixed:
            return False
        room = min(self.pool_bytes, self.memory.pool_bytes - nbytes) // MIB * MIB
        if room < MIN_POOL:
            return False
        self.resize_page_cache(room)
        return True

    @property
    def page_cache_fixed(self) -> bool:
        """Whether the store must keep its page cache's size: a database it did not open (a user's own
        handle), a size set with KGQA_BUFFER_POOL_MIB, or an open transaction."""
        return not self._reopenable or bool(self._pool_override)

    def _reopen(self, pool_bytes: int) -> None:
        """Close the database and open it again with a page cache of `pool_bytes` (the write-ahead log
        is checkpointed on close); UDFs and extensions are registered again on their next use."""
        self._close_readers()
        self._conn.close()
        self._db.close()
        self._open(pool_bytes)
        self._extensions, self._udfs, self._prepared = set(), set(), {}

    def sibling(self) -> GraphStore:
        """Another connection to this open database, with its own UDFs and transactions: a UDF that
        queries the database must run its queries on a connection other than the one calling it."""
        other = copy.copy(self)
        other._conn = kuzu.Connection(self._db)
        other._in_tx, other._extensions, other._udfs, other._owns_db = False, set(), set(), False
        other._prepared, other._readers = {}, None
        return other

    def scalar(self, name: str, params: dict[str, Any] | None = None) -> Any:
        """The first column of the first row of a named query (None when it returns no row)."""
        rows = self.run(name, params)
        return rows[0][0] if rows else None

    def _raw(self, name: str, text: str, params: dict[str, Any] | None) -> Any:
        start = time.perf_counter()
        try:
            result = self._conn.execute(text, params or {})
        except RuntimeError as exc:
            raise _query_error(name, exc) from exc
        if self.tracer:
            self.tracer(name, params, time.perf_counter() - start)
        return result

    def _execute(self, name: str, text: str, params: dict[str, Any] | None) -> list[list[Any]]:
        result = self._raw(name, text, params)
        if isinstance(result, list):  # a script with several statements
            return []
        rows = []
        while result.has_next():
            rows.append(result.get_next())
        return rows

    def prepare(self, name: str, **structural: int) -> Any:
        """Have Kùzu parse and bind a named query without running it; the prepared statement (run
        by `run_each`; tests prepare every query to check it binds)."""
        return self._prepare_on(self._conn, name, **structural)

    @staticmethod
    def _prepare_on(conn: Any, name: str, **structural: int) -> Any:
        query = assets.cypher(name, **structural)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # Kùzu prefers execute(text)
                prepared = conn.prepare(query.text)
        except RuntimeError as exc:
            raise StoreError(f"query {name} does not prepare: {exc}") from exc
        if not prepared.is_success():
            raise StoreError(f"query {name} does not prepare: {prepared.get_error_message()}")
        return prepared

    # -- transactions ------------------------------------------------------------------------
    @contextmanager
    def checkpoints_every(self, nbytes: int) -> Iterator[None]:
        """While the block runs, let the write-ahead log grow to `nbytes` between checkpoints (a
        build's many write transactions: each checkpoint rewrites pages whatever it carries), then
        checkpoint and go back to Kùzu's default. Not on a read-only store, nor on a database this
        store did not open (its owner's settings stay)."""
        if self.read_only or not self._owns_db:
            yield
            return
        self.run("meta/checkpoint_threshold", bytes=nbytes)
        try:
            yield
        except BaseException:
            with suppress(StoreError):  # the block's own error is the one to report
                self.run("meta/checkpoint_threshold", bytes=KUZU_CHECKPOINT_BYTES)
            raise
        self.run("meta/checkpoint_threshold", bytes=KUZU_CHECKPOINT_BYTES)
        # what was held back leaves memory before the next step; Kùzu refuses while another connection
        # holds a transaction (after a 5 s wait), and then checkpoints at a later commit instead
        with suppress(StoreError):
            self.run("meta/checkpoint")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All statements inside commit together or not at all. Nested use joins the outer one."""
        if self._in_tx:
            yield
            return
        self._raw("BEGIN", "BEGIN TRANSACTION", None)
        self._in_tx = True
        try:
            yield
        except BaseException:
            self._in_tx = False
            try:
                self._raw("ROLLBACK", "ROLLBACK", None)
            except StoreError:
                pass
            raise
        self._in_tx = False
        self._raw("COMMIT", "COMMIT", None)
        self._rows.clear()  # the tables' sizes `by_key` weighs may have changed

    # -- schema ------------------------------------------------------------------------------
    def has_table(self, table: str) -> bool:
        """Whether a node or rel table of that name exists."""
        rows = self._execute("show_tables", "CALL SHOW_TABLES() RETURN name", None)
        return any(r[0] == table for r in rows)

    def applied_migrations(self) -> set[str]:
        """Names of the schema scripts already applied to this database."""
        return {r[0] for r in self.run("meta/applied_migrations")}

    def apply_migrations(self, kind: str, **structural: int) -> list[str]:
        """Apply the not-yet-applied scripts of `schema/<kind>/` in order and record each."""
        if self.read_only:
            raise SchemaError("cannot change the schema of a database opened read-only")
        has_log = self.has_table("kgqa_SchemaMigration")
        # a user's own graph: HubLink's metadata tables first (graph/001 makes them itself, and must
        # make Entity first: Kùzu 0.11.3 returned wrong rows for hub_root_candidates when it was not)
        if not has_log and kind not in ("meta", "graph"):
            self.apply_migrations("meta")
            has_log = True
        done = self.applied_migrations() if has_log else set()
        applied = []
        for name, text in assets.schema_scripts(kind):
            if name in done:
                continue
            if "VECTOR_INDEX" in text:
                self.load_extension("vector")
            script = assets.fill_tokens(name, text, **structural)
            self._execute(name, script, None)
            self.run("meta/record_migration", {"name": name})
            applied.append(name)
        return applied

    def load_extension(self, name: str) -> None:
        """Install (bundled, offline) and load a Kùzu extension once per connection."""
        if name in self._extensions:
            return
        self._load_on(self._conn, name)
        self._extensions.add(name)

    @staticmethod
    def _load_on(conn: Any, name: str) -> None:
        upper = name.upper()
        try:
            conn.execute(f"INSTALL {upper}")
            conn.execute(f"LOAD EXTENSION {upper}")
        except RuntimeError as exc:
            if "already loaded" not in str(exc):
                raise StoreError(f"cannot load Kùzu extension {name}: {exc}") from exc

    # -- UDFs --------------------------------------------------------------------------------
    def register_function(self, name: str, func: Callable[..., Any], params: list[str], returns: str) -> None:
        """Register a Python UDF on this connection (replacing one of the same name)."""
        if name in self._udfs:
            self._conn.remove_function(name)
        try:
            types: list[Any] = list(params)
            self._conn.create_function(name, func, types, returns)
        except RuntimeError as exc:
            raise StoreError(f"cannot register UDF {name}: {exc}") from exc
        self._udfs.add(name)

    # -- metadata ----------------------------------------------------------------------------
    def meta_get(self, key: str) -> Any:
        """A metadata value (decoded JSON) or None (also before HubLink's first write to a user's
        own graph, which has no KgqaMeta table yet)."""
        try:
            value = self.scalar("meta/get", {"key": key})
        except StoreError:
            if self.has_table("kgqa_KgqaMeta"):
                raise
            return None
        return None if value is None else json.loads(value)

    def meta_set(self, key: str, value: Any) -> None:
        """Store a metadata value as JSON."""
        if not self.has_table("kgqa_KgqaMeta"):
            self.apply_migrations("meta")
        self.run("meta/set", {"key": key, "value": json.dumps(value, sort_keys=True)})

    def close(self) -> None:
        """Close the connection and the database (releases the file lock)."""
        try:
            self._close_readers()
            self._conn.close()
            if self._owns_db:
                self._db.close()
        except Exception:  # closing twice or after a failed open
            pass

    def _close_readers(self) -> None:
        if self._readers is not None:
            self._readers.close()
            self._readers = None
        self._prepared = {k: v for k, v in self._prepared.items() if k[-1] == 0}

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
