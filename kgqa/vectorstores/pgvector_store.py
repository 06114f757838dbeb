"""HubVectors in Postgres + pgvector (psycopg 3): one named index's tables in schema `kgqa_<name>`, bulk writes with binary
COPY, an HNSW index (cosine) over the embedded texts, index metadata in `kgqa.meta`."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from pgvector import HalfVector

from kgqa import assets
from kgqa.config import AnnParams
from kgqa.errors import IndexMismatchError, StoreError
from kgqa.graph.store import Tracer
from kgqa.postgres import sql_layer
from kgqa.postgres.database import INDEX_SCRIPT, PgDatabase
from kgqa.postgres.indexes import check_name, schema_of
from kgqa.types import Triple
from kgqa.vectorstores.base import (
    HubRecord,
    HubVectorStore,
    IndexCounts,
    PathRecord,
    ScoredVectors,
    decode_triples,
)
from kgqa.vectorstores.pg_resident import PgResident, ResidentCopy, resident_bytes

if TYPE_CHECKING:
    from kgqa.types import Answer

#: pgvector's upper bound for hnsw.ef_search.
MAX_EF_SEARCH = 1000
#: A question's HNSW searches run at once on at most this many connections.
MAX_SEARCHERS = 3


def _triple_rows(triples: tuple[Triple, ...]) -> list[list[str]]:
    """Triples in the stored JSON shape [[sid, slabel, predicate, oid, olabel], ...]."""
    return [[t.subject.id, t.subject.label, t.predicate, t.object.id, t.object.label] for t in triples]


class PgVectorHubStore:
    """The HubVector store protocol over a Postgres database with pgvector (see schema/postgres/)."""

    name = "pgvector"

    def __init__(
        self,
        dsn: str,
        *,
        index: str = "default",
        db_path: str | None = None,
        dim: int | None = None,
        tracer: Tracer | None = None,
        ann: AnnParams | None = None,
        half: bool = True,
        build_memory: int | None = None,
        room: Callable[[int], bool] | None = None,
    ) -> None:
        self.index = check_name(index)
        # the registry keeps an absolute path: valid from any working directory
        self.db_path = str(Path(db_path).resolve()) if db_path else None
        self.db = PgDatabase(dsn, schema=schema_of(index), tracer=tracer)
        self.dim = dim
        self.ann = ann or AnnParams()
        #: The most maintenance_work_mem (bytes) an HNSW build asks of the server (the memory ceiling).
        self.build_memory = build_memory
        #: A new index stores its embeddings as halfvec (KGQA_HALF_VECTORS); an existing one keeps its type.
        self.half_for_new = half
        self._half: bool | None = None  # the stored type, read on first use
        self._log_ready = False
        #: Several processes write this index at once (a shared build): new texts are merged, not copied.
        self.shared_writes = False
        #: Makes room for bytes held in this process beside the graph's page cache (GraphStore.give_room):
        #: where it does, `prime` reads the whole index into memory (kgqa/vectorstores/pg_resident.py).
        self.room = room
        self._resident: ResidentCopy | None = None
        self._searchers: list[PgDatabase] = []  # connections of a question's searches beside `db`
        self._search_pool: ThreadPoolExecutor | None = None
        self._efs_set: dict[int, tuple[Any, int]] = {}  # id(db) -> (its connection, the ef_search set on it)

    # -- schema ----------------------------------------------------------------------------------
    def ready(self) -> bool:
        """Whether the index tables exist."""
        return bool(self.db.scalar("index_tables_exist"))

    def stored_dim(self) -> int | None:
        """The dimension of the stored embeddings (None: no index tables)."""
        value = self.db.scalar("index_dimension")
        return int(value) if value is not None else None

    def half(self) -> bool:
        """Whether the stored embeddings are half vectors (halfvec, 2 bytes per dimension)."""
        if self._half is None:
            self._half = self.db.scalar("index_vector_type") == "halfvec"
        return self._half

    def ensure_schema(self, dim: int) -> None:
        """Create the kgqa schema and the index tables for vectors of size `dim`; an existing index
        of another dimension is an error (rebuild to change it)."""
        stored = self.stored_dim()
        if stored is not None and stored != dim:
            raise IndexMismatchError(
                f"the Postgres index stores vectors of dimension {stored} but the model "
                f"produces dimension {dim}; rebuild with `kgqa index build --rebuild`"
            )
        with self.db.transaction():
            self.db.apply_migrations("postgres", dim=dim)
            if stored is None and self.half_for_new:  # new, empty tables: no text written yet
                name, text = assets.schema_file("postgres", "post_create/half_vectors.sql")
                self.db.script(name, assets.fill_tokens(name, text, dim=dim))
            self._half = None
            self.db.run("register_index", {"name": self.index, "db_path": self.db_path})
            self.db.run("meta_set", {"key": "index_name", "value": json.dumps(self.index)})
        self.dim = dim
        if sql_layer.installed(self.db) and not sql_layer.present(self.db):
            sql_layer.install(self.db)  # its views went with a dropped index: bring them back

    def drop(self) -> None:
        """Drop the index tables (and the views over them); metadata and the answers log stay.
        Nothing to do on a database that never held the kgqa schema."""
        if not self.db.scalar("schema_version_exists"):
            return
        with self.db.transaction():
            self.db.run("drop_index_tables")
            self.db.run("forget_scripts", {"prefix": INDEX_SCRIPT})

    def drop_all(self) -> None:
        """Drop this index's schema (tables, views, functions, metadata) and its registry entry; the
        answers log keeps its rows. Other indexes are untouched."""
        with self.db.transaction():
            self.db.schema_statement("drop_index_schema")
            if self.db.scalar("registry_exists"):
                self.db.run("unregister_index", {"name": self.index})

    def has_ann_index(self) -> bool:
        """Whether the HNSW index exists."""
        return bool(self.db.scalar("has_ann_index"))

    def ensure_ann_index(self) -> bool:
        """Create the HNSW index after the first bulk load; True if it was created now."""
        if self.has_ann_index():
            return False
        script = "post_load/hnsw_cosine_half.sql" if self.half() else "post_load/hnsw_cosine.sql"
        name, text = assets.schema_file("postgres", script)
        self.db.run("hnsw_build_memory", {"kib": self.hnsw_build_bytes() // 1024})
        try:
            self.db.script(name, assets.fill_tokens(name, text, m=self.ann.m, ef_construction=self.ann.ef_construction))
        finally:
            self.db.run("hnsw_build_memory_reset")
        return True

    def hnsw_build_bytes(self) -> int:
        """What pgvector's in-memory HNSW build of the stored texts needs (each vector, its layer-0
        neighbour list of 2·m entries, the element's own fields), capped by `build_memory`."""
        texts = self.counts().texts
        per_vector = (self.dim or 0) * (2 if self.half() else 4) + 8 + 2 * self.ann.m * 16 + 256
        need = int(texts * per_vector * 1.1)
        return min(need, self.build_memory) if self.build_memory else need

    # -- metadata --------------------------------------------------------------------------------
    def meta_get(self, key: str) -> Any:
        """A metadata value (decoded JSON) or None."""
        if not self.db.scalar("schema_version_exists"):
            return None
        return self.db.scalar("meta_get", {"key": key})

    def meta_set(self, key: str, value: Any) -> None:
        """Store a metadata value as JSON."""
        self.db.run("meta_set", {"key": key, "value": json.dumps(value, sort_keys=True)})

    # -- writing ---------------------------------------------------------------------------------
    def signatures(self) -> dict[str, str]:
        """Stored hub id -> signature."""
        return dict(self.db.run("hub_signatures"))

    def existing_texts(self, hashes: list[str]) -> set[str]:
        """Text hashes with a stored embedding."""
        if not hashes:
            return set()
        return {r[0] for r in self.db.run("existing_texts", {"hashes": hashes})}

    def replace_hubs(
        self, hubs: list[HubRecord], texts: dict[str, tuple[str, np.ndarray]], *, new: Collection[str] = ()
    ) -> int:
        """In one transaction: delete these hubs but those in `new` (not stored; paths and vectors
        cascade), COPY the new texts, hubs, paths and HubVectors. Returns the number of HubVectors written."""
        dim = self._dim()
        for th, (_, vec) in texts.items():
            self._check_dim(np.asarray(vec), f"embedding of text {th}", dim)
        with self.db.transaction():
            stored = [h.id for h in hubs if h.id not in new]
            if stored:
                self.db.run("delete_hubs", {"ids": stored})
            if texts:
                self._store_texts(texts)
            self.db.copy(
                "copy_hubs",
                ["text", "text", "int4", "int4", "text"],
                ((h.id, h.label, h.depth, len(h.paths), h.signature) for h in hubs),
            )
            self.db.copy(
                "copy_paths",
                ["text", "text", "text", "jsonb", "int4"],
                ((p.hash, h.id, p.text, _triple_rows(p.triples), len(p.triples)) for h in hubs for p in h.paths),
            )
            return self.db.copy(
                "copy_vectors",
                ["text", "text", "text"],
                ((p.hash, lvl, th) for h in hubs for p in h.paths for lvl, th in p.vectors),
            )

    def _store_texts(self, texts: dict[str, tuple[str, np.ndarray]]) -> None:
        """COPY new embedded texts; with `shared_writes`, merged instead, keeping a text that another
        writer stored since it was found missing."""
        if not self.shared_writes:
            if self.half():
                rows: Any = ((th, t, HalfVector(np.asarray(v, dtype=np.float32))) for th, (t, v) in texts.items())
            else:
                rows = ((th, t, np.asarray(v, dtype=np.float32)) for th, (t, v) in texts.items())
            self.db.copy("copy_texts", ["text", "text", "halfvec" if self.half() else "vector"], rows)
            return
        self.db.run(
            "merge_texts",
            {
                "hashes": list(texts),
                "texts": [t for t, _ in texts.values()],
                "embeddings": [np.asarray(v, dtype=np.float32) for _, v in texts.values()],
            },
        )

    def bulk_writes(self) -> AbstractContextManager[None]:
        """Nothing to change: each batch is one Postgres transaction."""
        return nullcontext()

    def remove_hubs(self, hub_ids: list[str]) -> None:
        """Delete hubs with their paths and vectors, atomically."""
        if hub_ids:
            with self.db.transaction():
                self.db.run("delete_hubs", {"ids": hub_ids})

    def path_ends(self, hub_ids: list[str]) -> dict[str, set[str]]:
        """Hub id -> the entities its stored paths end at."""
        out: dict[str, set[str]] = {}
        if hub_ids:
            for hid, end in self.db.run("path_ends", {"ids": hub_ids}):
                out.setdefault(hid, set()).add(end)
        return out

    def collect_garbage(self) -> int:
        """Delete embedded texts no vector uses; return how many."""
        return int(self.db.scalar("gc_texts") or 0)

    # -- reading ---------------------------------------------------------------------------------
    def counts(self) -> IndexCounts:
        """Hubs, paths, vectors, texts."""
        if not self.ready():
            return IndexCounts(0, 0, 0, 0)
        return IndexCounts(*(int(v) for v in self.db.run("counts")[0]))

    def prime(self, like: HubVectorStore | None = None) -> None:
        """Read the whole index into memory where the memory ceiling has room for it beside the graph's
        page cache (`room`), the index stores half vectors and counts its changes: questions then score
        hubs, find texts' hubs and read paths there while the index is as it was read, and Postgres
        after a change until the copy is read again (kgqa/vectorstores/pg_resident.py). `like`: a primed
        store of the same index, whose copy is shared (one per service)."""
        if isinstance(like, PgVectorHubStore) and like.db.dsn == self.db.dsn and like.index == self.index:
            shared = like._resident  # held or not, the same for every store of the service: read once
            if shared is not None and (self.room is None or self.room(shared.nbytes)):
                self._resident = shared
            return
        if self.room is None or not self.ready() or not self.half():
            return
        counts = self.counts()
        if not counts.vectors or self._change_total() is None:
            return
        need = resident_bytes(counts, self._dim(), int(self.db.scalar("path_bytes") or 0))
        if not self.room(need):
            return
        resident = ResidentCopy(self.db.dsn, self.db.schema, self._dim())
        if resident.load():
            self._resident = resident

    def held_note(self) -> str | None:
        """The resident copy `prime` read, if any."""
        if self._resident is None:
            return None
        mib = self._resident.nbytes / 2**20
        return f"index in memory: {mib:,.1f} MiB read from Postgres (Postgres is read after a write, until a new copy)"

    @property
    def resident(self) -> ResidentCopy | None:
        """The index held in memory since `prime`, if any."""
        return self._resident

    def _held(self) -> PgResident | None:
        """The resident copy while it holds the index as it is now."""
        if self._resident is None:
            return None
        total = self._change_total()
        return None if total is None else self._resident.fresh(total)

    def _change_total(self) -> int | None:
        """The index's change count (None for an index without the counter: one built before it)."""
        try:
            return int(self.db.scalar("index_change_total"))
        except StoreError:
            return None

    def hub_labels(self, hub_ids: list[str]) -> dict[str, str]:
        """Labels of indexed hubs."""
        if not hub_ids:
            return {}
        return dict(self.db.run("hubs_by_ids", {"ids": hub_ids}))

    def score_hubs(self, hub_ids: list[str], queries: np.ndarray) -> ScoredVectors:
        """Exact similarities of all vectors of the given hubs: one read of each distinct text with the
        HubVectors that embed it, then one matrix product. Rows come back ordered by path hash and, within
        a path, by text storage order (a tie between a path's vectors goes to the text stored first)."""
        queries = self._queries(queries)
        if hub_ids and (held := self._held()) is not None:
            return held.hub_table.score(hub_ids, queries)
        fetched = self.db.run("hub_vectors", {"hubs": hub_ids}, binary=True) if hub_ids else []
        if not fetched:
            return ScoredVectors.empty(len(queries))
        row_text = np.repeat(np.arange(len(fetched)), [len(r[4]) for r in fetched])  # each HubVector's text
        hubs = [hub for r in fetched for hub in r[4]]
        paths = [path for r in fetched for path in r[5]]
        levels = [level for r in fetched for level in r[6]]
        order = np.lexsort((np.asarray([r[2] for r in fetched])[row_text], np.asarray(paths)))
        text_rows = row_text[order].tolist()
        return ScoredVectors.from_columns(
            [hubs[i] for i in order],
            [paths[i] for i in order],
            [levels[i] for i in order],
            [fetched[t][1] for t in text_rows],
            [fetched[t][0] for t in text_rows],
            {r[0]: i for i, r in enumerate(fetched)},
            _float32_vectors([r[3] for r in fetched]),
            queries,
        )

    def nearest_texts(self, query: np.ndarray, k: int) -> list[tuple[str, str, float]]:
        """HNSW search; similarity = 1 - cosine distance."""
        return self._search(self.db, self._queries(query)[0], k)

    def nearest_each(self, queries: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """`nearest_texts` for each query vector, at once, each on a connection of its own: a search
        mostly waits for the server's reads of HNSW pages, and Postgres runs each connection's in a
        process of its own (10^6 triples, three searches: 42 -> 19 ms with cold pages, 28 -> 23 warm)."""
        vecs = self._queries(queries)
        if len(vecs) < 2:
            return [[(h, sim) for h, _text, sim in self._search(self.db, v, k)] for v in vecs]
        while len(self._searchers) < min(len(vecs), MAX_SEARCHERS) - 1:
            self._searchers.append(PgDatabase(self.db.dsn, schema=self.db.schema, tracer=self.db.tracer))
        dbs = [self.db, *self._searchers]
        if self._search_pool is None:
            self._search_pool = ThreadPoolExecutor(MAX_SEARCHERS, thread_name_prefix="kgqa-ann")
        shares = [range(j, len(vecs), len(dbs)) for j in range(len(dbs))]  # each connection's searches in turn
        runs = self._search_pool.map(lambda j: [self._search(dbs[j], vecs[i], k) for i in shares[j]], range(len(dbs)))
        found: list[list[tuple[str, str, float]]] = [[] for _ in vecs]
        for share, rows in zip(shares, runs):
            for i, hits in zip(share, rows):
                found[i] = hits
        return [[(h, sim) for h, _text, sim in hits] for hits in found]

    def _search(self, db: PgDatabase, vec: np.ndarray, k: int) -> list[tuple[str, str, float]]:
        """One HNSW search on `db`, its search list size set where the connection has another."""
        efs = min(MAX_EF_SEARCH, self.ann.search_width(k))
        conn, efs_set = self._efs_set.get(id(db), (None, None))
        if conn is not db.conn or efs_set != efs:  # a new connection (a reconnect) or another size
            db.run("set_ef_search", {"efs": str(efs)})
            self._efs_set[id(db)] = (db.conn, efs)
        return [(r[0], r[1], float(r[2])) for r in db.run("ann_texts", {"query": vec, "k": k})]

    def text_hubs(self, text_hashes: list[str], limit: int) -> dict[str, tuple[int, list[str]]]:
        """Each text's fan-out (the hubs that embed it) and its first `limit` hubs by id."""
        if not text_hashes:
            return {}
        found: dict[str, tuple[int, list[str]]] = {}
        if (held := self._held()) is not None:
            wanted = list(dict.fromkeys(text_hashes))
            numbers = held.text_numbers(wanted)
            for text, number in zip(wanted, numbers):
                if number is not None and (hubs := held.text_hubs.hubs(number, limit)) is not None:
                    found[text] = hubs
            text_hashes = [t for t, n in zip(wanted, numbers) if n is None]
            if not text_hashes:
                return found
        rows = self.db.run("text_hubs", {"hashes": text_hashes, "limit": limit})
        found.update((r[0], (int(r[1]), list(r[2]))) for r in rows)
        return found

    def paths(self, hashes: list[str], hubs: list[str] | None = None) -> dict[str, PathRecord]:
        """Stored paths by hash (read by their index whether or not `hubs` is given)."""
        if not hashes:
            return {}
        if (held := self._held()) is not None:
            return {
                r.hash: PathRecord(r.hash, r.hub_id, r.text, decode_triples(r.triples)) for r in held.paths.find(hashes)
            }
        rows = self.db.run("paths_by_hash", {"hashes": list(dict.fromkeys(hashes))})
        return {r[0]: PathRecord(r[0], r[1], r[2], decode_triples(r[3])) for r in rows}

    # -- export (index sync) -----------------------------------------------------------------------
    def hub_records(self, hub_ids: list[str]) -> list[HubRecord]:
        """The given hubs with their paths and HubVectors, as written by `replace_hubs`."""
        if not hub_ids:
            return []
        vectors: dict[str, list[tuple[str, str]]] = {}
        for ph, level, th in self.db.run("export_vectors", {"ids": hub_ids}):
            vectors.setdefault(ph, []).append((level, th))
        hubs: dict[str, tuple[list, list[PathRecord]]] = {}
        for hid, label, depth, sig, ph, text, triples in self.db.run("export_hubs", {"ids": hub_ids}):
            _, paths = hubs.setdefault(hid, ([label, depth, sig], []))
            if ph is not None:
                paths.append(PathRecord(ph, hid, text, decode_triples(triples), tuple(vectors.get(ph, ()))))
        return [HubRecord(hid, head[0], int(head[1]), head[2], tuple(paths)) for hid, (head, paths) in hubs.items()]

    def text_hashes(self) -> list[str]:
        """Every stored text hash in storage order."""
        return [r[0] for r in self.db.run("text_hashes")] if self.ready() else []

    def embeddings(self, text_hashes: list[str]) -> dict[str, tuple[str, np.ndarray]]:
        """Stored texts with their embeddings, by text hash."""
        if not text_hashes:
            return {}
        rows = self.db.run("text_embeddings", {"hashes": text_hashes}, binary=True)
        return {r[0]: (r[1], r[2].to_numpy().astype(np.float32)) for r in rows}

    # -- answers log -------------------------------------------------------------------------------
    def log_answer(self, answer: Answer, query_vectors: np.ndarray | None = None) -> int:
        """Append an answer to kgqa.answers; returns its id."""
        if not self._log_ready:  # an index written by an older schema: add the log table first
            self.db.apply_migrations("postgres", dim=self._dim())
            self._log_ready = True
        vecs = None if query_vectors is None else [np.asarray(v, dtype=np.float32) for v in query_vectors]
        return int(
            self.db.scalar(
                "insert_answer",
                {
                    "question": answer.question,
                    "answer": answer.answer,
                    "sources": json.dumps([s.as_dict() for s in answer.sources]),
                    "triples": json.dumps(answer.triples),
                    "hubs": json.dumps([h.as_dict() for h in answer.hubs]),
                    "retriever": answer.retriever,
                    "strategy": answer.strategy,
                    "mode": answer.mode,
                    "topic_entity": answer.topic_entity,
                    "components": json.dumps(answer.components),
                    "timings": json.dumps({k: round(v, 4) for k, v in answer.timings.items()}),
                    "llm_tokens": json.dumps(answer.llm_tokens, default=str),
                    "result": None if answer.result is None else json.dumps(answer.result, default=str),
                    "query_vectors": vecs,
                    "index_name": self.index,
                },
            )
        )

    def recent_answers(self, limit: int = 100) -> list[dict[str, Any]]:
        """The latest logged answers, newest first."""
        if not self.db.scalar("schema_version_exists"):
            return []
        cols = ("id", "asked_at", "question", "answer", "sources", "triples", "strategy", "mode", "seconds")
        out = []
        for row in self.db.run("recent_answers", {"limit": limit, "index_name": self.index}):
            rec = dict(zip(cols, row))
            rec["sources"] = [s["hub_id"] for s in json.loads(rec["sources"])]
            rec["triples"] = json.loads(rec["triples"])
            out.append(rec)
        return out

    def close(self) -> None:
        """Close the connections."""
        if self._search_pool is not None:
            self._search_pool.shutdown(wait=True)
            self._search_pool = None
        for db in (self.db, *self._searchers):
            db.close()
        self._searchers.clear()

    # -- checks ----------------------------------------------------------------------------------
    def _dim(self) -> int:
        if self.dim is None:
            self.dim = self.stored_dim()
        if self.dim is None:
            raise IndexMismatchError("the Postgres index has no tables yet; build or sync an index first")
        return self.dim

    def _check_dim(self, vec: np.ndarray, what: str, dim: int) -> None:
        if vec.ndim != 1 or vec.shape[0] != dim:
            raise IndexMismatchError(
                f"{what} has dimension {vec.shape[-1] if vec.ndim else 0} but the "
                f"Postgres index stores dimension {dim}; use the index's embedding model"
            )

    def _queries(self, queries: np.ndarray) -> np.ndarray:
        """Query vectors as a float32 matrix of the index's dimension."""
        q = np.atleast_2d(np.asarray(queries, dtype=np.float32))
        dim = self._dim()
        if q.ndim != 2 or q.shape[1] != dim:
            raise IndexMismatchError(
                f"query vectors have dimension {q.shape[-1]} but the Postgres index "
                f"stores dimension {dim}; use the index's embedding model"
            )
        return q


def _float32_vectors(sent: list[bytes]) -> np.ndarray:
    """Vectors in pgvector's binary form (`vector_send`: int16 dimension, int16 unused, then big-endian
    float32s) as one (rows, dim) float32 matrix, parsed in one step."""
    if not sent:
        return np.zeros((0, 0), np.float32)
    width = len(sent[0])
    raw = np.frombuffer(b"".join(sent), dtype=np.uint8).reshape(len(sent), width)
    return raw[:, 4:].copy().view(">f4").astype(np.float32)


def default_index(dsn: str) -> str | None:
    """The index unqualified calls use (`kgqa sql install --default`), or None."""
    db = PgDatabase(dsn)
    try:
        return db.scalar("default_index") if db.scalar("registry_exists") else None
    finally:
        db.close()


def named_indexes(dsn: str) -> list[tuple[str, str | None, IndexCounts]]:
    """Every named index in the Postgres database: (name, the Kùzu database it came from, counts)."""
    db = PgDatabase(dsn)
    try:
        rows = db.run("list_indexes") if db.scalar("registry_exists") else []
    finally:
        db.close()
    out = []
    for name, db_path, _, _ in rows:
        store = PgVectorHubStore(dsn, index=name)
        try:
            out.append((name, db_path, store.counts()))
        finally:
            store.close()
    return out
