"""HubVectors in embedded Kùzu, next to the graph, with Kùzu's HNSW vector index (cosine)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from kgqa.config import AnnParams
from kgqa.errors import PageCacheFullError
from kgqa.graph.key_reads import cheaper_by_key
from kgqa.graph.store import GraphStore
from kgqa.memory import (
    MIB,
    MIN_POOL,
    TEXTS_PER_HUB,
    MemoryCeilingError,
    batch_bytes,
    build_checkpoint_bytes,
    build_need,
    check_build,
    check_writes,
    hnsw_plan,
    release_unused_memory,
)
from kgqa.vectorstores.base import HubRecord, IndexCounts, PathRecord, ScoredVectors, decode_triples, encode_triples
from kgqa.vectorstores.hub_vector_table import HubRows, HubVectorTable, table_bytes
from kgqa.vectorstores.path_table import PathTable, estimated_bytes
from kgqa.vectorstores.raw import raw_matrix, raw_vector
from kgqa.vectorstores.text_hub_index import MAX_VECTORS, TextHubIndex
from kgqa.vectorstores.vector_cache import Columns, HubVectorCache

if TYPE_CHECKING:
    from kgqa.vectorstores.base import HubVectorStore

#: Measured costs of reading by key against scanning (bench/results/lookups.md, Kùzu 0.11.3, 2 cores):
#: one primary-key lookup query per text (with its fan-out) or per path, and one stored row scanned.
TEXT_LOOKUP_S = 1.3e-3
PATH_LOOKUP_S = 0.2e-3
SCAN_ROW_S = 0.25e-6


class KuzuHubVectorStore:
    """The default HubVector store: tables Hub, HubPath, EmbeddedText and edges HasPath, Embeds."""

    name = "kuzu"

    def __init__(
        self, store: GraphStore, dim: int | None = None, ann: AnnParams | None = None, *, half_raw: bool = True
    ) -> None:
        self.store = store
        self.dim = dim
        self.ann = ann or AnnParams()
        self.half_raw = half_raw  # new texts' BLOB copy as float16 (KGQA_HALF_VECTORS; `raw_matrix` reads both)
        # read-only: no process can write while it is open, so hub vectors read once stay valid
        self._cache = HubVectorCache(self._read_hub_vectors) if store.read_only else None
        # hash -> path (None: read, and not stored); a hash not in it is not read yet
        self._records: dict[str, PathRecord | None] | None = {} if store.read_only else None
        self._counts: IndexCounts | None = None  # table sizes, for cheaper_by_key (forgotten on every write)
        # read-only, after prime(): each text's hubs in memory, found by the node offsets ANN hits carry
        self.text_hub_index: TextHubIndex | None = None
        self._text_offsets: dict[str, int] = {}
        self._hub_offsets: dict[str, int] = {}  # read-only, after prime(): hub id -> node offset
        # read-only, after prime() where the memory ceiling has room: every HubVector in memory, by hub
        self.hub_table: HubVectorTable | None = None
        self.path_table: PathTable | None = None  # read-only, after prime() where there is room: every path

    def ready(self) -> bool:
        """Whether the index tables exist."""
        return self.store.has_table("kgqa_Hub")

    def meta_get(self, key: str) -> Any:
        """Index metadata, kept in the graph database's KgqaMeta."""
        return self.store.meta_get(key)

    def meta_set(self, key: str, value: Any) -> None:
        """Store index metadata in KgqaMeta."""
        self.store.meta_set(key, value)

    def ensure_schema(self, dim: int) -> None:
        """Create the index tables (vector size `dim`) and the HNSW index, once."""
        self.dim = dim
        self.store.load_extension("vector")
        self.store.apply_migrations("hubindex", dim=dim)

    def drop(self) -> None:
        """Drop all index tables (hubs, paths, vectors, embedded texts and the HNSW index). The
        migrations are forgotten first: if the process dies half-way, the next `ensure_schema`
        creates whatever tables are missing (its scripts use IF NOT EXISTS)."""
        self._counts = None
        if not self.store.has_table("kgqa_SchemaMigration"):  # a user's own graph never indexed
            return
        self.store.run("meta/forget_migrations", {"prefix": "hubindex/"})
        if not self.ready():
            return
        self.store.load_extension("vector")
        if self.has_ann_index():
            self.store.run("indexing/drop_vector_index")
        self.store.run("indexing/drop_index_tables")

    def _dim(self) -> int:
        if self.dim is None:
            raise RuntimeError("vector dimension unknown: call ensure_schema or pass dim")
        return self.dim

    def signatures(self) -> dict[str, str]:
        """Stored hub id -> signature."""
        return {r[0]: r[1] for r in self.store.run("indexing/hub_signatures")}

    def existing_texts(self, hashes: list[str]) -> set[str]:
        """Text hashes with a stored embedding."""
        if not hashes:
            return set()
        return {r[0] for r in self.store.run("indexing/existing_texts", {"hashes": hashes})}

    def replace_hubs(
        self, hubs: list[HubRecord], texts: dict[str, tuple[str, np.ndarray]], *, new: Collection[str] = ()
    ) -> int:
        """Rewrite the given hubs atomically; returns the number of HubVectors written. The hubs in
        `new` are not stored (a build's new hubs): no delete runs for them, since each delete query
        scans the path and HubVector tables (Kùzu 0.11.3 plans the id list as a join)."""
        self._counts = None
        dim = self._dim()
        paths: dict[str, list] = {"hash": [], "hub_id": [], "text": [], "triples": [], "length": []}
        vectors: dict[str, list] = {"path": [], "text": [], "level": []}
        for hub in hubs:
            for p in hub.paths:
                for key, value in (
                    ("hash", p.hash),
                    ("hub_id", hub.id),
                    ("text", p.text),
                    ("triples", encode_triples(p.triples)),
                    ("length", len(p.triples)),
                ):
                    paths[key].append(value)
                for lvl, th in p.vectors:
                    vectors["path"].append(p.hash)
                    vectors["text"].append(th)
                    vectors["level"].append(lvl)
        with self.store.transaction():
            stored = [h.id for h in hubs if h.id not in new]
            if stored:
                self._delete_hubs(stored)
            if texts:
                self.store.run_with_table("indexing/insert_texts", text_table(texts, dim, half=self.half_raw), dim=dim)
            if hubs:  # none: only texts are added (index sync copies texts first)
                self.store.run_with_table(
                    "indexing/insert_hubs",
                    pa.table(
                        {
                            "id": [h.id for h in hubs],
                            "label": [h.label for h in hubs],
                            "depth": pa.array([h.depth for h in hubs], pa.int64()),
                            "path_count": pa.array([len(h.paths) for h in hubs], pa.int64()),
                            "signature": [h.signature for h in hubs],
                        }
                    ),
                )
            if paths["hash"]:
                self.store.run_with_table(
                    "indexing/insert_paths", pa.table({**paths, "length": pa.array(paths["length"], pa.int64())})
                )
            if vectors["path"]:
                self.store.run_with_table("indexing/insert_vectors", pa.table(vectors))
        return len(vectors["path"])

    def has_ann_index(self) -> bool:
        """Whether the HNSW index over the embedded texts exists."""
        return bool(self.store.run("indexing/show_indexes"))

    def check_build_memory(self, triples: int, dim: int, *, hubs_per_batch: int, rebuild: bool = False) -> None:
        """Before a build writes anything: MemoryCeilingError when its write batches (`hubs_per_batch`
        hubs each) or the HNSW index it will create (none exists yet, or `rebuild`) cannot fit in the page
        cache the memory ceiling allows (kgqa/memory.py; its texts estimated from the graph's `triples`).
        An update of an index that has its HNSW index is checked for its batches only."""
        if self.store.pool_fixed:
            return
        memory, batch = self.store.memory, batch_bytes(hubs_per_batch, dim)
        if not rebuild and self.ready() and self._has_ann_index_loaded():
            texts = self.counts().texts
            check_writes(memory, memory.pool_bytes, texts, dim, batch, TEXTS_PER_HUB * hubs_per_batch)
            return
        m = self.ann.m
        check_build(memory, memory.hnsw_pool_bytes, triples, dim, 2 * m, m, batch=batch)

    def _has_ann_index_loaded(self) -> bool:
        self.store.load_extension("vector")
        return self.has_ann_index()

    def ensure_ann_index(self) -> bool:
        """Create the HNSW index if it is missing (after the first bulk load); True if created. The
        vectors are held in the page cache while it is built when they fit there, else read from their
        pages (kgqa/memory.py); MemoryCeilingError, naming the setting, when even that cannot fit. When
        the step fits better in the page cache the ceiling allows it (its batches are written by then),
        the database is reopened with that cache for the step alone."""
        self.store.load_extension("vector")
        if self.has_ann_index():
            return False
        mu, ml, dim = self.ann.m, 2 * self.ann.m, self._dim()
        if self.store.grow_buffer_pool():  # the database grew during the build: a cache sized for it now
            self.store.load_extension("vector")  # (a new connection)
        vectors, pool = self._rows().texts, self.store.pool_bytes
        wider = self.store.memory.hnsw_pool_bytes if self.store.resizable else pool
        pool, cached = hnsw_plan(pool, wider, vectors, dim, ml, mu)
        if cached is None and not self.store.pool_fixed:
            memory = self.store.memory
            raise MemoryCeilingError(
                f"the memory ceiling ({memory.source}: {memory.mib:,} MiB) is too small for the HNSW index over "
                f"{vectors:,} texts; set --memory / KGQA_MEMORY to at least "
                f"{build_need(vectors, dim, ml, mu) // 2**20:,} MiB and run the build again "
                "(it resumes: the hubs written are kept)"
            )
        if cached:
            try:
                self._create_hnsw("indexing/create_vector_index", pool, mu, ml)
                return True
            except PageCacheFullError:
                # the estimate fell short: the streamed variant needs far less, but Kùzu 0.11.3 keeps the
                # failed index's name on the open table ("already exists") until the database is reopened
                if not self.store.reopen():
                    raise
        self._create_hnsw("indexing/create_vector_index_streamed", pool, mu, ml)
        return True

    def _create_hnsw(self, name: str, pool: int, mu: int, ml: int) -> None:
        """Run the HNSW query `name` with the database open with a page cache of `pool` bytes."""
        with self.store.page_cache(pool):
            self.store.load_extension("vector")
            self.store.run(name, mu=mu, ml=ml, efc=self.ann.ef_construction)

    def bulk_writes(self) -> AbstractContextManager[None]:
        """A build's batches checkpoint once the log holds an eighth of the page cache (at most 256 MiB)
        instead of after every commit (Kùzu's 16 MiB default), and once at the end."""
        return self.store.checkpoints_every(build_checkpoint_bytes(getattr(self.store, "pool_bytes", 0)))

    def remove_hubs(self, hub_ids: list[str]) -> None:
        """Delete hubs with their paths and vectors, atomically."""
        self._counts = None
        if hub_ids:
            with self.store.transaction():
                self._delete_hubs(hub_ids)

    def _delete_hubs(self, hub_ids: list[str]) -> None:
        """Vectors, then paths, then hubs (inside the caller's transaction; see delete_hub_vectors)."""
        for step in ("indexing/delete_hub_vectors", "indexing/delete_hub_paths", "indexing/delete_hub_nodes"):
            self.store.run(step, {"ids": hub_ids})

    def path_ends(self, hub_ids: list[str]) -> dict[str, set[str]]:
        """Hub id -> the entities its stored paths end at."""
        out: dict[str, set[str]] = {}
        if hub_ids:
            for hid, triples in self.store.run("indexing/path_ends", {"ids": hub_ids}):
                path = decode_triples(triples)
                if path:
                    out.setdefault(hid, set()).add(path[-1].object.id)
        return out

    def collect_garbage(self) -> int:
        """Delete unused embedded texts."""
        self._counts = None
        return int(self.store.scalar("indexing/gc_texts") or 0)

    def counts(self) -> IndexCounts:
        """Hubs, paths, vectors, texts (counted once while the database is open read-only: nothing
        can change them then)."""
        if self._counts is not None and self.store.read_only:
            return self._counts
        if not self.ready():
            return IndexCounts(0, 0, 0, 0)
        hubs, paths, vectors, texts = self.store.run("indexing/counts")[0]
        counts = IndexCounts(hubs, paths, vectors, texts)
        if self.store.read_only:
            self._counts = counts
        return counts

    def hub_labels(self, hub_ids: list[str]) -> dict[str, str]:
        """Labels of indexed hubs."""
        if not hub_ids:
            return {}
        return {r[0]: r[1] for r in self.store.run("retrieval/hubs_by_ids", {"ids": hub_ids})}

    def score_hubs(self, hub_ids: list[str], queries: np.ndarray) -> ScoredVectors:
        """Exact similarities of all vectors of the given hubs: columns from Kùzu (kept in memory
        while the database is open read-only), one matrix product."""
        if not hub_ids:
            return ScoredVectors.empty(len(queries))
        if self.hub_table is not None:
            return self.hub_table.score(hub_ids, queries)
        if self._cache is not None:
            return self._cache.score(hub_ids, queries)
        hubs, paths, levels, texts, text_keys, raws = self._read_hub_vectors(hub_ids)
        if not text_keys:
            return ScoredVectors.empty(len(queries))
        first: dict[int, int] = {}
        for i, k in enumerate(text_keys):
            first.setdefault(k, i)
        matrix = raw_matrix([raws[i] for i in first.values()])
        embedded = {k: j for j, k in enumerate(first)}
        return ScoredVectors.from_columns(hubs, paths, levels, texts, text_keys, embedded, matrix, queries)

    def _read_hub_vectors(self, hub_ids: list[str]) -> Columns:
        """Every HubVector of the hubs (`Columns`), found by node offset once primed."""
        return tuple(self._columns_of_hubs("retrieval/hub_vectors", hub_ids))  # type: ignore[return-value]

    def _columns_of_hubs(self, name: str, hub_ids: list[str]) -> list[list[Any]]:
        """Run the query `name` on the hubs by id, or its `name`_at form by node offset when a primed
        store knows every hub's offset (`h.id IN $list` costs ~50 ms at 10^6, hub_vectors_at.cypher)."""
        offsets = [self._hub_offsets.get(h) for h in hub_ids] if self._hub_offsets else None
        if offsets is not None and None not in offsets:
            return self.store.run_columns(f"{name}_at", {"offsets": offsets})
        return self.store.run_columns(name, {"hubs": list(dict.fromkeys(hub_ids))})

    def nearest_texts(self, query: np.ndarray, k: int) -> list[tuple[str, str, float]]:
        """HNSW search; similarity = 1 - cosine distance."""
        self.store.load_extension("vector")
        rows = self.store.run(
            "retrieval/ann_texts", {"query": query.astype(np.float32).tolist(), "k": k, "efs": self.ann.search_width(k)}
        )
        self._remember_offsets((r[0], int(r[3])) for r in rows)
        return [(r[0], r[1], 1.0 - float(r[2])) for r in rows]

    def nearest_each(self, queries: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """HNSW searches for several query vectors, run at once on a read-only store's reader
        connections; once primed, a search returns node offsets alone and the texts' hashes come from
        memory (Kùzu reads a hit's properties for about as long as the search itself takes)."""
        self.store.load_extension("vector")
        efs = self.ann.search_width(k)
        params = [{"query": np.asarray(q, dtype=np.float32).tolist(), "k": k, "efs": efs} for q in queries]
        index = self.text_hub_index
        if index is None or index.hashes is None:
            batches = self.store.run_many("retrieval/ann_texts", params)
            self._remember_offsets((r[0], int(r[3])) for rows in batches for r in rows)
            return [[(r[0], 1.0 - float(r[2])) for r in rows] for rows in batches]
        found = []
        for rows in self.store.run_many("retrieval/ann_offsets", params):
            offsets = [int(r[0]) for r in rows]
            hashes = index.hashes_at(offsets)
            self._remember_offsets((h, o) for h, o in zip(hashes, offsets) if h is not None)
            found.append([(h, 1.0 - float(r[1])) for h, r in zip(hashes, rows) if h is not None])
        return found

    def _remember_offsets(self, pairs: Iterable[tuple[str, int]]) -> None:
        """Hash -> node offset of texts ANN returned, where `text_hubs` finds their hubs in memory."""
        if self.text_hub_index is None:
            return
        if len(self._text_offsets) > 1_000_000:
            self._text_offsets.clear()
        self._text_offsets.update(pairs)

    def prime(self, like: HubVectorStore | None = None) -> None:
        """Read now what questions read from the index and a read-only store keeps: the table sizes,
        each text's hubs as arrays (kgqa/vectorstores/text_hub_index.py; up to MAX_VECTORS HubVectors)
        and, where the memory ceiling leaves the page cache at least MIN_POOL beside it, every HubVector
        (kgqa/vectorstores/hub_vector_table.py; the page cache gives up the room), then, where room is
        left, every path (kgqa/vectorstores/path_table.py). `like`: a primed store open read-only on the
        same database, whose counts and arrays are shared (read once for all of a service's workspaces)."""
        shared = isinstance(like, KuzuHubVectorStore) and like._counts is not None and like.store.read_only
        if shared and self.store.read_only:
            self._counts, self.text_hub_index = like._counts, like.text_hub_index  # type: ignore[union-attr]
            self._hub_offsets, self.hub_table = like._hub_offsets, like.hub_table  # type: ignore[union-attr]
            self.path_table = like.path_table  # type: ignore[union-attr]
            if self.hub_table is not None:
                self.store.give_room(self._held_bytes())
            return
        counts = self.counts()
        if not self.store.read_only or not self.ready():
            return
        self._hub_offsets = dict(self.store.run("retrieval/hub_offsets_all"))
        if counts.vectors > MAX_VECTORS:
            return
        pool = self.store.pool_bytes if not self.store.page_cache_fixed else 0
        table = self.dim is not None and self.store.give_room(table_bytes(counts, self.dim))
        paths = self.store.run_arrow("retrieval/path_hubs_all")
        embeds = self.store.run_arrow("retrieval/hub_vectors_all" if table else "retrieval/embeds_all")
        index = TextHubIndex.build(
            paths.column(0).to_numpy(),
            paths.column(1).to_pylist(),
            embeds.column(0).to_numpy(),
            embeds.column(1).to_numpy(),
        )
        hashes = self._read_aside("retrieval/text_hashes_all", None)
        self.text_hub_index = index.with_hashes(hashes.column(0).to_numpy(), hashes.column(1).combine_chunks())
        del hashes
        rows = HubRows.of(self._hub_offsets, paths, embeds) if table else None
        del paths, embeds
        release_unused_memory()  # the columns read: before the texts and their vectors are
        if rows is not None:
            self.hub_table = HubVectorTable.read(self._read_aside, rows, self._dim())
            if self.hub_table is None:  # float32 copies: scored from Kùzu, with the page cache it had
                self.store.resize_page_cache(pool)
            else:  # room for what it holds, where the estimate was short
                self.store.give_room(self.hub_table.nbytes)
                self._read_path_table()

    def held_note(self) -> str | None:
        """The hub vector and path tables `prime` keeps, if any."""
        if self.hub_table is None:
            return None
        paths = f", every path {self.path_table.nbytes / MIB:,.1f} MiB" if self.path_table is not None else ""
        return f"index in memory: hub vectors {self.hub_table.nbytes / MIB:,.1f} MiB{paths}"

    def _read_path_table(self) -> None:
        """Every path in memory (`paths` reads them there), where the page cache keeps MIN_POOL beside
        it and the hub vector table."""
        assert self.hub_table is not None
        paths, chars = self.store.run("retrieval/path_bytes")[0]
        if not self.store.give_room(self.hub_table.nbytes + estimated_bytes(int(paths), int(chars or 0))):
            return
        self.path_table = PathTable.read(self._read_aside)
        if not self.store.give_room(self._held_bytes()):  # larger than estimated (characters, not bytes): not kept
            self.path_table = None
            release_unused_memory()

    def _held_bytes(self) -> int:
        """What this store holds in memory beside the page cache (its hub vector and path tables)."""
        tables = (self.hub_table, self.path_table)
        return sum(t.nbytes for t in tables if t is not None)

    def _read_aside(self, name: str, params: dict[str, Any] | None) -> pa.Table:
        """One query of the table's scan of every text, on a handle of its own with the smallest page
        cache, closed after it: the texts' pages do not push what questions read out of the store's."""
        with self.store.side_reader(MIN_POOL) as read:
            return read(name, params)

    def text_hubs(self, text_hashes: list[str], limit: int) -> dict[str, tuple[int, list[str]]]:
        """Each text's fan-out (the hubs that embed it) and its first `limit` hubs by id; counted
        in Kùzu, so a text shared by thousands of hubs returns one row. Read in one query that scans
        the stored texts, or with one primary-key lookup per text when that is cheaper (`cheaper_by_key`)."""
        if not text_hashes:
            return {}
        wanted = list(dict.fromkeys(text_hashes))
        found: dict[str, tuple[int, list[str]]] = {}
        if self.text_hub_index is not None:  # primed, read-only: in memory for the texts ANN returned
            index, offsets = self.text_hub_index, self._text_offsets
            for t in [t for t in wanted if t in offsets]:
                if (hubs := index.hubs(offsets[t], limit)) is not None:
                    found[t] = hubs
            wanted = [t for t in wanted if t not in offsets]
            if not wanted:
                return found
        rows: Iterable[Any]
        if cheaper_by_key(len(wanted), TEXT_LOOKUP_S, self._rows().texts, SCAN_ROW_S):
            rows = self.store.run_each("retrieval/text_hubs_one", "hash", wanted, {"limit": limit})
        else:
            rows = zip(*self.store.run_columns("retrieval/text_hubs", {"hashes": wanted, "limit": limit}))
        found.update((t, (int(n), list(h))) for t, n, h in rows)
        return found

    def _rows(self) -> IndexCounts:
        """The index's table sizes, counted once and again after each write."""
        if self._counts is None:
            self._counts = self.counts()
        return self._counts

    def paths(self, hashes: list[str], hubs: list[str] | None = None) -> dict[str, PathRecord]:
        """Stored paths by hash, in the order asked; kept while read-only (the same paths are read
        question after question). With `hubs` (the hashes are every path of those hubs) and more paths
        to read than hubs, they are read through the hubs' edges (`retrieval/hub_paths`)."""
        if not hashes:
            return {}
        wanted = list(dict.fromkeys(hashes))
        if self._records is None or self.path_table is not None:  # nothing to keep, or all kept already
            found = self._read_paths(wanted, hubs)
            return {h: rec for h in wanted if (rec := found.get(h)) is not None}
        known = {h: self._records[h] for h in wanted if h in self._records}
        missing = [h for h in wanted if h not in known]
        if missing:
            if len(self._records) > 1_000_000:
                self._records.clear()
            found = self._read_paths(missing, hubs)
            self._records.update(found)
            self._records.update((h, None) for h in missing if h not in found)
            known.update(found)
        return {h: rec for h in wanted if (rec := known.get(h)) is not None}

    def _read_paths(self, hashes: list[str], hubs: list[str] | None = None) -> dict[str, PathRecord]:
        """The paths asked for (and, when read through `hubs`, every other path of those hubs)."""
        rows: Iterable[Any]
        if self.path_table is not None:  # primed: every path in memory
            return {
                r.hash: PathRecord(r.hash, r.hub_id, r.text, decode_triples(r.triples))
                for r in self.path_table.find(hashes)
            }
        if hubs and len(hashes) > len(hubs):
            rows = zip(*self._columns_of_hubs("retrieval/hub_paths", hubs))
            found = {h: PathRecord(h, hub, text, decode_triples(triples)) for h, hub, text, triples in rows}
            rest = [h for h in hashes if h not in found]  # not a path of those hubs: read by hash
            return {**found, **self._read_paths(rest)} if rest else found
        if cheaper_by_key(len(hashes), PATH_LOOKUP_S, self._rows().paths, SCAN_ROW_S):
            rows = self.store.run_each("retrieval/path_by_hash", "hash", hashes)
        else:
            rows = zip(*self.store.run_columns("retrieval/paths_by_hash", {"hashes": hashes}))
        return {h: PathRecord(h, hub, text, decode_triples(triples)) for h, hub, text, triples in rows}

    def hub_records(self, hub_ids: list[str]) -> list[HubRecord]:
        """The given hubs with their paths and HubVectors, as written by `replace_hubs`."""
        if not hub_ids:
            return []
        vectors: dict[str, list[tuple[str, str]]] = {}
        for ph, level, th in self.store.run("indexing/export_vectors", {"ids": hub_ids}):
            vectors.setdefault(ph, []).append((level, th))
        hubs: dict[str, tuple[list, list[PathRecord]]] = {}
        for hid, label, depth, sig, ph, text, triples in self.store.run("indexing/export_hubs", {"ids": hub_ids}):
            _, paths = hubs.setdefault(hid, ([label or "", depth, sig], []))
            if ph is not None:
                paths.append(PathRecord(ph, hid, text, decode_triples(triples), tuple(vectors.get(ph, ()))))
        return [
            HubRecord(hid, head[0], int(head[1] or 0), head[2], tuple(paths)) for hid, (head, paths) in hubs.items()
        ]

    def text_hashes(self) -> list[str]:
        """Every stored text hash in storage order."""
        return [r[0] for r in self.store.run("indexing/text_hashes")] if self.ready() else []

    def embeddings(self, text_hashes: list[str]) -> dict[str, tuple[str, np.ndarray]]:
        """Stored texts with their embeddings (from the float32 BLOB copy), by text hash."""
        if not text_hashes:
            return {}
        rows = self.store.run("indexing/export_texts", {"hashes": text_hashes})
        return {r[0]: (r[1], raw_vector(r[2])) for r in rows}

    def close(self) -> None:
        """Nothing of its own: the graph store belongs to the workspace."""


def text_table(texts: dict[str, tuple[str, np.ndarray]], dim: int, *, half: bool = False) -> pa.Table:
    """Texts with their embeddings as an Arrow table (hash, text, FLOAT[dim] embedding, raw bytes: float32,
    or float16 with `half`) for Kùzu's `LOAD FROM`."""
    matrix = np.stack([v for _, v in texts.values()]).astype(np.float32)
    return pa.table(
        {
            "hash": list(texts),
            "text": [t for t, _ in texts.values()],
            "embedding": pa.FixedSizeListArray.from_arrays(pa.array(matrix.ravel()), dim),
            "raw": pa.array([row.astype("<f2" if half else "<f4").tobytes() for row in matrix], type=pa.binary()),
        }
    )
