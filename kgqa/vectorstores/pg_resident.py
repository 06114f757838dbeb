"""Every HubVector, text and path of a pgvector index in a service's memory, read from Postgres in one
snapshot and dropped when the index changes.

A direct question scores every HubVector of about 90 candidate hubs (~13,600 at 10^6 triples). Read
from Postgres, joined to their texts and grouped, that costs 120-180 ms a question, and the hit texts'
hubs and the kept hubs' paths 70 ms more (docs/scale.md). A primed service whose memory ceiling has
room reads the whole index once instead, into the tables a read-only Kùzu store holds
(kgqa/vectorstores/hub_vector_table.py, text_hub_index.py, path_table.py): a hub's rows are then an
array slice. The reads are binary or CSV `COPY`s parsed into NumPy and Arrow columns, never a Python
object per HubVector. Unlike a read-only Kùzu file the index can change under the service: every
statement that writes it counts a change (schema/postgres/002_hub_index_changes.sql), a copy knows the
count of its snapshot, and the store compares it with the current count before using the copy.
"""

from __future__ import annotations

import io
import struct
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

from kgqa.errors import StoreError
from kgqa.memory import release_unused_memory
from kgqa.postgres.database import PgDatabase
from kgqa.vectorstores.base import IndexCounts
from kgqa.vectorstores.hub_vector_table import HubRows, HubVectorTable, table_bytes
from kgqa.vectorstores.path_table import PathTable, byte_keys, estimated_bytes, find_sorted
from kgqa.vectorstores.text_hub_index import TextHubIndex

#: The levels of `resident_vectors.sql`'s numbers, in order.
LEVELS = ("path", "triple", "entity", "predicate")
#: The width of a stored hash (an MD5 hex digest); an index with another width is not held.
HASH_WIDTH = 32
#: Bytes of COPY output parsed at once.
BLOCK = 8 * 2**20
#: What the copy keeps beside the hub vector and path tables: the text hub index (about 4 bytes a
#: HubVector) and each text's hash, twice (sorted and as read; 2 x 32 bytes and an index).
TEXT_INDEX_BYTES = 4
TEXT_KEY_BYTES = 2 * HASH_WIDTH + 8

_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"
_HEADER = 19  # the signature, the flags and the length of the header extension (none)
_TRAILER = b"\xff\xff"
_INT16 = struct.Struct(">h")
_INT32 = struct.Struct(">i")


class NotHeld(Exception):
    """The index does not fit the resident layout (a hash of another width, rows that changed count)."""


def resident_bytes(counts: IndexCounts, dim: int, path_bytes: int) -> int:
    """What a resident copy of an index of these sizes keeps in memory (`path_bytes`: the paths' hashes,
    hub ids, texts and triples in all)."""
    kept = table_bytes(counts, dim) + estimated_bytes(counts.paths, path_bytes)
    return kept + counts.vectors * TEXT_INDEX_BYTES + counts.texts * TEXT_KEY_BYTES


@dataclass(frozen=True)
class PgResident:
    """One snapshot of a pgvector index: its change count, every HubVector by hub, each text's hubs,
    every path, and each text's number (its row in the tables) by hash."""

    changes: int
    hub_table: HubVectorTable
    text_hubs: TextHubIndex
    paths: PathTable
    sorted_keys: np.ndarray  # every text hash (fixed-width bytes), sorted
    key_number: np.ndarray  # the text number of each sorted hash

    @classmethod
    def read(cls, db: PgDatabase, dim: int) -> PgResident:
        """The index as one snapshot sees it; NotHeld where it does not fit the layout."""
        with db.snapshot():  # the widest tables first, while little is held beside their columns
            changes = int(db.scalar("index_change_total"))
            _hubs, paths_n, vectors_n, texts_n = db.run("counts")[0]
            paths, path_hubs = _paths(db, int(paths_n))
            release_unused_memory()
            keys, texts = _text_strings(db, int(texts_n))  # text numbers: the order read here
            key_order = np.argsort(keys, kind="stable")
            sorted_keys = keys[key_order]
            del keys
            release_unused_memory()
            seqs, vectors = _texts(db, dim, sorted_keys, key_order)
            text_of, path_of, level_of = _hub_vectors(db, int(vectors_n), sorted_keys, key_order, paths.sorted_hashes)
        rows = _hub_rows(path_hubs, text_of, path_of, level_of, seqs, paths.sorted_hashes)
        text_index = TextHubIndex.build(range(len(path_hubs)), path_hubs, text_of, path_of)
        del text_of, path_of, level_of
        release_unused_memory()
        table = HubVectorTable(rows, (np.arange(len(vectors), dtype=np.int32), texts, vectors), path_major=True)
        return cls(changes, table, text_index, paths, sorted_keys, key_order.astype(np.int32))

    @property
    def nbytes(self) -> int:
        """What the copy keeps in memory."""
        keys = self.sorted_keys.nbytes + self.key_number.nbytes
        return self.hub_table.nbytes + self.text_hubs.nbytes + self.paths.nbytes + keys

    def text_numbers(self, hashes: Sequence[str]) -> list[int | None]:
        """Each text's number in the tables (None for a text the copy does not hold)."""
        return [None if n < 0 else n for n in find_sorted(self.sorted_keys, self.key_number, hashes).tolist()]


def _texts(db: PgDatabase, dim: int, sorted_keys: np.ndarray, key_order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every text's storage order and float16 vector, at its text number."""
    layout = np.dtype(
        [("n", ">i2"), ("hash_len", ">i4"), ("hash", f"S{HASH_WIDTH}"), ("seq_len", ">i4"), ("seq", ">i8")]
        + [("vec_len", ">i4"), ("dim", ">i2"), ("unused", ">i2"), ("vec", ">f2", (dim,))]
    )
    count = len(sorted_keys)
    seqs = np.empty(count, np.int64)
    vectors = np.empty((count, dim), np.float16)
    filled = 0
    for block in fixed_blocks(db.copy_out("resident_texts"), layout):
        _check(block, {"n": 3, "hash_len": HASH_WIDTH, "seq_len": 8, "vec_len": 4 + 2 * dim, "dim": dim})
        numbers = find_sorted(sorted_keys, key_order, block["hash"])
        if (numbers < 0).any():
            raise NotHeld("a text's vector came without its string")
        seqs[numbers], vectors[numbers] = block["seq"], block["vec"]
        filled += len(block)
    if filled != count:  # hashes are unique: every number was filled once
        raise NotHeld("the texts' vectors do not match their strings")
    return seqs, vectors


def _text_strings(db: PgDatabase, count: int) -> tuple[np.ndarray, pa.Array]:
    """Every text's hash and string, in the order read (the text numbers)."""
    table = _csv(db.copy_out("resident_text_strings"), ["hash", "text"])
    if table.num_rows != count:
        raise NotHeld("texts changed count while read")
    return _keys(table.column(0)), table.column(1).combine_chunks()


def _paths(db: PgDatabase, count: int) -> tuple[PathTable, list[str]]:
    """Every path (a PathTable: path numbers are the sorted hashes' positions) and each path number's hub."""
    table = _csv(db.copy_out("resident_paths"), ["hash", "hub_id", "text", "triples"])
    if table.num_rows != count:
        raise NotHeld("paths changed count while read")
    keys = _keys(table.column(0))
    order = np.argsort(keys, kind="stable")
    columns = []
    for name in ("hub_id", "text", "triples"):  # one column's chunks and its copy at a time
        columns.append(table.column(name).combine_chunks())
        table = table.drop_columns([name])
    hub_ids, texts, triples = columns
    del table
    paths = PathTable(keys[order], order.astype(np.int64), hub_ids, texts, triples)
    return paths, hub_ids.take(pa.array(order)).to_pylist()


#: A path's HubVectors as `resident_vectors.sql` packs them.
PACKED = np.dtype([("level", ">i2"), ("text", f"S{HASH_WIDTH}")])
#: Paths whose packed HubVectors are unpacked at once.
PATHS_AT_ONCE = 100_000


def _hub_vectors(
    db: PgDatabase, count: int, sorted_keys: np.ndarray, key_order: np.ndarray, path_keys: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every HubVector's text number, path number and level number."""
    text_of = np.empty(count, np.int32)
    path_of = np.empty(count, np.int32)
    level_of = np.empty(count, np.int8)
    path_numbers = np.arange(len(path_keys))
    filled = 0
    paths: list[bytes] = []
    packs: list[bytes] = []

    def unpack() -> None:
        nonlocal filled
        rows = np.frombuffer(b"".join(packs), PACKED)
        lengths = np.fromiter((len(p) for p in packs), np.int64, len(packs))
        if (lengths % PACKED.itemsize).any() or filled + len(rows) > count:
            raise NotHeld("a path's HubVectors are not packed as read")
        texts = find_sorted(sorted_keys, key_order, rows["text"])
        numbers = find_sorted(path_keys, path_numbers, np.asarray(paths, dtype=f"S{HASH_WIDTH}"))
        if (texts < 0).any() or (numbers < 0).any():
            raise NotHeld("a HubVector names a text or path not read")
        end = filled + len(rows)
        text_of[filled:end], level_of[filled:end] = texts, rows["level"]
        path_of[filled:end] = np.repeat(numbers, lengths // PACKED.itemsize)
        filled = end
        paths.clear()
        packs.clear()

    for path, pack in variable_rows(db.copy_out("resident_vectors"), 2):
        paths.append(path)
        packs.append(pack)
        if len(paths) >= PATHS_AT_ONCE:
            unpack()
    unpack()
    if filled != count:
        raise NotHeld("HubVectors changed count while read")
    return text_of, path_of, level_of


def _hub_rows(
    path_hubs: list[str],
    text_of: np.ndarray,
    path_of: np.ndarray,
    level_of: np.ndarray,
    seqs: np.ndarray,
    path_keys: np.ndarray,
) -> HubRows:
    """The HubVectors grouped by hub, each hub's rows ordered by path hash and then by text storage
    order (the order `hub_vectors.sql`'s rows are scored in: a tie between a path's vectors goes to the
    text stored first)."""
    hub_ids = sorted(set(path_hubs))
    number = {h: i for i, h in enumerate(hub_ids)}
    path_hub = np.fromiter((number[h] for h in path_hubs), np.int64, len(path_hubs))
    path_hashes = pa.array(path_keys, pa.binary(path_keys.dtype.itemsize)).cast(pa.string())
    return HubRows.grouped(
        hub_ids,
        path_hub[path_of],
        (text_of, path_of, level_of),
        np.asarray(LEVELS, dtype=object),
        path_hashes,
        within=(seqs[text_of], path_of),
    )


def fixed_blocks(chunks: Iterable[bytes], layout: np.dtype) -> Iterator[np.ndarray]:
    """The rows of a binary COPY whose rows all have `layout`'s width, a block at a time; NotHeld where
    the stream is not such a COPY (its header, its length or its trailer)."""
    buf = bytearray()
    start: int | None = None
    width = layout.itemsize
    for chunk in chunks:
        buf += chunk
        if len(buf) < BLOCK:
            continue
        if start is None:
            start = _header(buf)
        n = (len(buf) - start) // width
        yield np.frombuffer(bytes(buf[start : start + n * width]), layout)
        del buf[: start + n * width]
        start = 0
    if start is None:
        start = _header(buf)
    rest = len(buf) - start - len(_TRAILER)
    if rest < 0 or rest % width or bytes(buf[len(buf) - len(_TRAILER) :]) != _TRAILER:
        raise NotHeld("a COPY's rows are not of one width")
    if rest:
        yield np.frombuffer(bytes(buf[start : start + rest]), layout)


def variable_rows(chunks: Iterable[bytes], fields: int) -> Iterator[tuple[bytes, ...]]:
    """The rows of a binary COPY whose fields are all non-null, each as a tuple of its fields' bytes;
    NotHeld where the stream is not such a COPY."""
    buf = bytearray()
    pos: int | None = None
    for chunk in chunks:
        buf += chunk
        if pos is None:
            if len(buf) < _HEADER:
                continue
            pos = _header(buf)
        while len(buf) - pos >= 2:
            (n,) = _INT16.unpack_from(buf, pos)
            if n == -1:
                if len(buf) - pos > 2:
                    raise NotHeld("data after a COPY's trailer")
                return
            if n != fields:
                raise NotHeld(f"a COPY row of {n} fields, not {fields}")
            row, at = [], pos + 2
            for _ in range(fields):
                if len(buf) - at < 4:
                    break
                (length,) = _INT32.unpack_from(buf, at)
                if length < 0:
                    raise NotHeld("a null field")
                if len(buf) - at - 4 < length:
                    break
                row.append(bytes(buf[at + 4 : at + 4 + length]))
                at += 4 + length
            if len(row) < fields:  # the row goes on in the next chunk
                break
            pos = at
            yield tuple(row)
        if pos >= BLOCK:
            del buf[:pos]
            pos = 0
    raise NotHeld("a COPY without its trailer")


def _header(buf: bytearray) -> int:
    """Where the rows of a binary COPY start."""
    if not buf.startswith(_SIGNATURE) or len(buf) < _HEADER or buf[15:19] != b"\x00\x00\x00\x00":
        raise NotHeld("not a binary COPY without header extension")
    return _HEADER


def _check(block: np.ndarray, expected: dict[str, int]) -> None:
    """Every row's field count and field lengths as the layout has them."""
    for name, value in expected.items():
        if (block[name] != value).any():
            raise NotHeld(f"a row's {name} is not {value}")


def _csv(chunks: Iterable[bytes], names: list[str]) -> pa.Table:
    """A CSV `COPY` as an Arrow table of strings, parsed while it streams (no copy of its whole text)."""
    reader = pa_csv.open_csv(
        _ChunkStream(iter(chunks)),
        read_options=pa_csv.ReadOptions(column_names=names, block_size=BLOCK, use_threads=False),
        parse_options=pa_csv.ParseOptions(newlines_in_values=True),
        convert_options=pa_csv.ConvertOptions(
            column_types={n: pa.string() for n in names}, strings_can_be_null=False, quoted_strings_can_be_null=False
        ),
    )
    return pa.Table.from_batches(list(reader), reader.schema)


class _ChunkStream(io.RawIOBase):
    """A readable binary stream over the chunks a COPY sends."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = chunks
        self._rest = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        filled = 0
        while filled < len(view):
            if not self._rest:
                self._rest = next(self._chunks, b"")
                if not self._rest:
                    break
            n = min(len(view) - filled, len(self._rest))
            view[filled : filled + n] = self._rest[:n]
            self._rest = self._rest[n:]
            filled += n
        return filled


def _keys(column: pa.ChunkedArray) -> np.ndarray:
    """Hashes as fixed-width bytes; NotHeld where one is not HASH_WIDTH long."""
    if not len(column):
        return np.empty(0, f"S{HASH_WIDTH}")
    keys = byte_keys(column.combine_chunks())
    if keys.dtype.itemsize != HASH_WIDTH or (len(keys) and np.char.str_len(keys).min() != HASH_WIDTH):
        raise NotHeld(f"a hash is not {HASH_WIDTH} characters")
    return keys


#: A changed index is read again once no change has come for this long (a build writing batch after
#: batch is not re-read after each one) ...
QUIET_S = 10.0
#: ... and no sooner after the last read ended than this many times that read's duration.
READ_GAP = 2.0


class ResidentCopy:
    """The resident copy the stores of one service share, and its renewal: `fresh(total)` is the copy
    when it holds the index at that change count, else None (the store then reads Postgres), dropping
    a stale copy and reading a new one on a thread of its own once the index has been quiet for QUIET_S."""

    def __init__(self, dsn: str, schema: str, dim: int) -> None:
        self._dsn, self._schema, self._dim = dsn, schema, dim
        self._copy: PgResident | None = None
        self._lock = threading.Lock()
        self._reader: threading.Thread | None = None
        self._seen = (-1, 0.0)  # the last change count seen and when it was first seen
        self._next_read = 0.0  # monotonic time before which no new read starts
        self.reads = 0  # copies read and kept
        self.failure: str | None = None  # why the last read was not kept

    def load(self) -> bool:
        """Read the copy now (at a service's start); False, keeping nothing, where the index does not
        fit the layout."""
        copy = self._read()
        with self._lock:
            self._copy = copy
        return copy is not None

    def fresh(self, total: int) -> PgResident | None:
        """The copy if it was read at change count `total`."""
        with self._lock:
            copy = self._copy
            if copy is not None and copy.changes == total:
                return copy
            now = time.monotonic()
            if total != self._seen[0]:
                self._seen = (total, now)
            if copy is not None:  # stale: dropped now, so that the new copy never sits beside it
                self._copy = None
            quiet = now - self._seen[1] >= QUIET_S and now >= self._next_read
            if quiet and (self._reader is None or not self._reader.is_alive()):
                self._reader = threading.Thread(target=self._renew, name="kgqa-resident-read", daemon=True)
                self._reader.start()
        if copy is not None:
            del copy
            release_unused_memory()
        return None

    @property
    def nbytes(self) -> int:
        """What the current copy keeps (0 when there is none)."""
        copy = self._copy
        return copy.nbytes if copy is not None else 0

    def _renew(self) -> None:
        """Read a new copy and keep it unless the index changed while it was read."""
        start = time.monotonic()
        copy = self._read()
        with self._lock:
            self._next_read = time.monotonic() + READ_GAP * (time.monotonic() - start)
            if copy is not None and copy.changes == self._seen[0]:
                self._copy = copy
            elif copy is not None:
                self.failure = "the index changed while it was read"

    def _read(self) -> PgResident | None:
        db = PgDatabase(self._dsn, schema=self._schema)
        try:
            copy = PgResident.read(db, self._dim)
        except (NotHeld, StoreError) as exc:
            self.failure = str(exc)
            return None
        finally:
            db.close()
            release_unused_memory()
        self.reads += 1
        self.failure = None
        return copy
