"""Fresh after an INSERT (`--graph postgres`): the triggers of schema/postgres_graph/ mark the entities a
write touched in `dirty_entities`, in the writer's transaction. `GraphRefresher`, a thread of `kgqa
serve`, looks every REFRESH_S seconds; when there are marks it takes them (FOR UPDATE SKIP LOCKED, so
several workers share the work and never take the same marks), walks backward from them to the hub
roots whose paths reach them (kgqa/indexing/dirty.py), rebuilds those hubs, and deletes the marks in
the transaction that held them. A worker killed mid-refresh rolls that transaction back: the marks
stay for the next one, and the rebuild is idempotent."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kgqa.config import GRAPH_SCHEMA_SETTING
from kgqa.errors import KgqaError
from kgqa.indexing.dirty import DirtyTracker, tracker_criteria
from kgqa.indexing.metadata import read_info
from kgqa.postgres.database import PgDatabase
from kgqa.postgres.graph_store import PgGraph
from kgqa.postgres.indexes import schema_of

if TYPE_CHECKING:
    from kgqa.api import Workspace
    from kgqa.config import Settings
    from kgqa.indexing.builder import BuildReport

#: Seconds between looks at the dirty marks (a change reaches answers within about twice this plus a rebuild).
REFRESH_S = 1.0
#: Marks taken per refresh.
BATCH = 10_000


class PgDirtyWalker(DirtyTracker):
    """The dirty-hub walk of kgqa/indexing/dirty.py over the graph in Postgres."""

    def in_neighbours(self, ids: list[str]) -> list:
        return [list(r) for r in self._db.run("graph_in_neighbours", {"ids": ids})]

    def entity_rows(self, ids: list[str]) -> list:
        return [list(r) for r in self._db.run("graph_entity_facts", {"ids": ids})]

    @property
    def _db(self) -> PgDatabase:
        assert isinstance(self.store, PgGraph)
        return self.store.db


def affected_hubs(ws: Workspace, entity_ids: list[str]) -> list[str]:
    """The hub roots whose paths reach (or start at) the entities `entity_ids` touched."""
    info = read_info(ws.vstore)
    if info is None:
        return []
    walker = PgDirtyWalker(ws.store, *tracker_criteria(info))
    touched = set(entity_ids)
    return sorted(walker.walk(touched, touched))


def refresh_once(
    dsn: str, index: str, write: Callable[[Callable[[Workspace], Any]], Any]
) -> tuple[int, BuildReport | None]:
    """Take the dirty marks (those no other worker holds), rebuild the hubs they touch with `write`
    (a writable workspace, questions held meanwhile) and delete the marks; returns the number of
    entities marked and the rebuild's report (None when nothing was marked or there is no index)."""
    db = PgDatabase(dsn, schema=schema_of(index))
    try:
        if not db.scalar("graph_has_dirty"):
            return 0, None
        with db.transaction():
            taken = db.run("graph_claim_dirty", {"lim": BATCH})
            if not taken:
                return 0, None
            ids = sorted({r[1] for r in taken})

            def rebuild(ws: Workspace) -> BuildReport | None:
                if read_info(ws.vstore) is None:
                    return None
                return ws.update_index(hubs=affected_hubs(ws, ids))

            report = write(rebuild)
            db.run("graph_clear_dirty", {"seqs": [r[0] for r in taken]})
        return len(ids), report
    finally:
        db.close()


def refresh_here(ws: Workspace) -> BuildReport | None:
    """`kgqa index update --dirty` on the graph in Postgres: the refresh of `kgqa serve`, in this process."""
    from kgqa.postgres.server import resolve_dsn

    if ws.settings.graph_schema is not None:  # your own views carry no dirty marks: compare every hub's content hash
        return ws.update_index()
    return refresh_once(resolve_dsn(ws.settings), ws.settings.index_name, lambda fn: fn(ws))[1]


class GraphRefresher:
    """The thread of `kgqa serve` that keeps the index in step with the graph in Postgres."""

    def __init__(
        self, dsn: str, index: str, write: Callable[[Callable[[Workspace], Any]], Any], info: Callable[[str], None]
    ) -> None:
        self.dsn, self.index, self.write, self.info = dsn, index, write, info
        self.refreshed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kgqa-graph-refresh", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=60)

    def _run(self) -> None:
        failing = False
        while not self._stop.wait(REFRESH_S):
            try:
                n, _ = refresh_once(self.dsn, self.index, self.write)
            except KgqaError as exc:
                if not failing:
                    self.info(f"graph refresh failed ({exc}); trying again")
                failing = True
                continue
            failing = False
            if n:
                self.refreshed += n
                self.info(f"graph refresh: {n} changed entit{'y' if n == 1 else 'ies'}, their hubs rebuilt")


def start_graph_refresher(settings: Settings, pool: Any, info: Callable[[str], None]) -> list[GraphRefresher]:
    """With the graph in Postgres: the refresher thread of this service (none otherwise)."""
    if settings.graph != "postgres":
        return []
    if settings.graph_schema is not None:
        info(f"graph read from your own views ({GRAPH_SCHEMA_SETTING}): run `kgqa index update` after changing them")
        return []
    from kgqa.postgres.server import resolve_dsn

    refresher = GraphRefresher(resolve_dsn(settings), settings.index_name, pool.exclusive, info)
    refresher.start()
    info(f"keeping index '{settings.index_name}' fresh: graph changes are picked up every {REFRESH_S:g}s")
    return [refresher]
