"""The memory ceiling of a process that builds, updates or serves an index (`--memory`, `KGQA_MEMORY`).

The ceiling is split in two: a reserve for Python, the embedding model and one batch's texts and
vectors, and the rest for Kùzu's page cache (buffer pool), which also holds Kùzu's query intermediates
and, at the end of a first build, the HNSW index under construction. Kùzu 0.11.3 builds that index in
its page cache (`hnsw_bytes`, read from its vector extension and checked in bench/results/hnsw_step.md):
its graph, when `cache_embeddings` is on every vector, and at the end each thread's node group of edges;
with `cache_embeddings` off the vectors are read from their pages. `hnsw_fits` picks the variant that
fits, and `check_build` refuses a build whose HNSW step cannot fit, before anything is written. By the
HNSW step the batches are written and the model is idle, so that step may take most of the reserve too
(`MemoryCeiling.hnsw_pool_bytes`).

The batches before it need the page cache too (`write_bytes`): each checkpoint that adds rows to a text
table's last node group rewrites that group's vector column whole, so what they need grows with that
group (up to 131,072 rows), not with the batch; `check_build` refuses a build whose batches cannot fit
either.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import math
import os
import re
import sys
from dataclasses import dataclass

from kgqa.errors import ConfigError

MIB = 2**20
GIB = 2**30
#: The default ceiling: this share of the machine's memory, at most DEFAULT_CAP.
DEFAULT_SHARE = 0.4
DEFAULT_CAP = 3 * GIB
#: Python, the embedding model (ONNX or torch) and one batch of texts and vectors: outside the page cache
#: (a 10^4-triple build peaked at 856 MiB with its cache mostly empty, bench/results/scale.md).
PROCESS_RESERVE = 768 * MIB
#: What the process keeps outside the page cache during a build's HNSW step, when every batch is written
#: and the embedding model (still loaded) is idle: 240 MiB measured in a process that had loaded and used
#: the int8 model (bench/results/hnsw_step.md), plus room for what a long build leaves behind.
HNSW_RESERVE = 320 * MIB
#: The smallest page cache a build or a question is run with (Kùzu cannot do much with less).
MIN_POOL = 256 * MIB
#: Unique embedded texts per triple in an index (1.60 at 10^5, 1.53 at 10^6, bench/results/scale.md);
#: rounded up, for the estimate made before a build starts.
TEXTS_PER_TRIPLE = 2.0
#: The HNSW upper layer samples this share of the vectors (Kùzu's `pu` default).
UPPER_SHARE = 0.05
#: Kùzu 0.11.3's HNSW graph in memory (extension/vector/src/index/hnsw_graph.cpp): a vector has
#: ceil(1.25 × degree) neighbour slots of 4 bytes (under 2^32 vectors) and a 2-byte length.
SLOT_RATIO = 1.25
SLOT_BYTES = 4
LENGTH_BYTES = 2
#: A vector held with `cache_embeddings`: its float32 values plus its list entry in the column chunk.
LIST_ENTRY_BYTES = 16
#: At the end of the step each of Kùzu's threads writes a node group (131,072 vectors) of edges into the
#: page cache, 16 bytes an edge (the neighbour's offset and the edge's id), up to `ml` edges a vector.
NODE_GROUP = 131_072
EDGE_BYTES = 16
#: Page-cache room the HNSW step needs beyond `hnsw_bytes` (the pages it reads the vectors through).
HNSW_ROOM = 32 * MIB

#: Page-cache room a build's write batches need beyond `write_bytes`'s column rewrite and held rows (the
#: primary-key indexes, the other columns' pages, the transaction's own rows).
WRITE_ROOM = 48 * MIB
#: One hub of a build batch writes about this many new texts, paths and HubVectors (the 10^6 run's
#: averages, bench/write_batches.py), and these bytes for each beyond a text's two vector columns.
TEXTS_PER_HUB = 31
PATHS_PER_HUB = 17
VECTORS_PER_HUB = 150
TEXT_ROW_BYTES = 200
PATH_ROW_BYTES = 600
VECTOR_ROW_BYTES = 64

#: Kùzu 0.11.3 checkpoints after every commit that takes its write-ahead log past this (its default).
KUZU_CHECKPOINT_BYTES = 16 * MIB
#: A build checkpoints at most this rarely: at 10^6 triples each checkpoint rewrites ~4 s of pages, so
#: one per 200-hub batch was half the write time (docs/scale.md); committed changes not yet
#: checkpointed are held in memory, so it is also kept to a share of the page cache.
BUILD_CHECKPOINT_CAP = 256 * MIB
BUILD_CHECKPOINT_SHARE = 8

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_UNIT = {"": MIB, "k": 2**10, "m": MIB, "g": GIB, "t": 2**40}


class MemoryCeilingError(ConfigError):
    """The memory ceiling (`--memory` / KGQA_MEMORY) is too small for the work asked."""


def parse_size(text: str, setting: str = "KGQA_MEMORY") -> int:
    """Bytes from a size such as `3G`, `1.5GiB`, `2048M` or `2048` (MiB); ConfigError naming `setting`."""
    match = _SIZE.match(text)
    if not match:
        raise ConfigError(f"{setting} must be a size such as 3G, 1536M or 2048 (MiB), got {text!r}")
    size = int(float(match.group(1)) * _UNIT[match.group(2).lower()])
    if size < PROCESS_RESERVE + MIN_POOL:
        raise MemoryCeilingError(
            f"{setting}={text.strip()} is below the smallest ceiling, {(PROCESS_RESERVE + MIN_POOL) // MIB} MiB "
            f"({PROCESS_RESERVE // MIB} MiB for the process and the model, {MIN_POOL // MIB} MiB for Kùzu's page cache)"
        )
    return size


def total_memory() -> int:
    """The machine's physical memory in bytes (4 GiB when it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 * GIB


def proc_bytes(path: str, field: str) -> int | None:
    """A size Linux gives in kB in a /proc file (`MemAvailable` in /proc/meminfo), in bytes; None where
    it cannot be read."""
    try:
        with open(path, encoding="ascii") as lines:
            for line in lines:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def release_unused_memory() -> int:
    """Give back to the system what this process's allocators hold but no longer use (before a build's
    HNSW step, when its batches are written): Python's unreachable objects, pyarrow's pool, and glibc's
    free pages (`malloc_trim`). Returns how many bytes the resident size fell by (0 where unknown)."""
    before = proc_bytes("/proc/self/status", "VmRSS")
    gc.collect()
    try:
        import pyarrow

        pyarrow.default_memory_pool().release_unused()
    except (ImportError, AttributeError):
        pass
    libc = ctypes.util.find_library("c") if sys.platform.startswith("linux") else None
    if libc:
        try:
            ctypes.CDLL(libc).malloc_trim(0)
        except (OSError, AttributeError):
            pass  # not glibc
    after = proc_bytes("/proc/self/status", "VmRSS")
    return max(0, before - after) if before is not None and after is not None else 0


#: A service's young-generation threshold (Python's default is 700): a direct question allocates some
#: 15,000 tracked objects (triples, paths, tuples), nearly all freed by reference counting, and with the
#: default the collector ran 19 times a question and a full collection every 7 questions (70 ms each at
#: 10^6 triples); docs/scale.md, "Where a direct question's time goes".
SERVICE_GC_THRESHOLD = 20_000


def settle_heap() -> None:
    """For a long-running service once it has read what it keeps: collect, move every object alive now
    out of the collector's view (`gc.freeze`: they stay for the process's life) and collect young
    objects less often. Called again after the service reopens its workspaces."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(SERVICE_GC_THRESHOLD, middle, old)


def peak_rss_bytes() -> int:
    """This process's peak resident memory: Linux's VmHWM, which a new program starts afresh
    (`getrusage`'s ru_maxrss starts from the parent's at the fork, so a child of a large process
    reports at least the parent's size); ru_maxrss where /proc cannot be read."""
    peak = proc_bytes("/proc/self/status", "VmHWM")
    if peak is not None:
        return peak
    import resource

    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


@dataclass(frozen=True)
class MemoryCeiling:
    """A process's memory ceiling in bytes, and where it came from (named in every refusal)."""

    bytes: int
    source: str

    @classmethod
    def default(cls, total: int | None = None) -> MemoryCeiling:
        """min(3 GiB, 40 % of the machine's memory), never under the smallest ceiling."""
        size = max(PROCESS_RESERVE + MIN_POOL, min(DEFAULT_CAP, int(DEFAULT_SHARE * (total or total_memory()))))
        return cls(size, "the default, min(3 GiB, 40 % of RAM)")

    @classmethod
    def from_setting(cls, text: str | None, setting: str = "KGQA_MEMORY") -> MemoryCeiling:
        """The ceiling a `--memory` / KGQA_MEMORY value sets, else the default."""
        if text is None or not str(text).strip():
            return cls.default()
        return cls(parse_size(str(text), setting), f"{setting}={str(text).strip()}")

    @property
    def pool_bytes(self) -> int:
        """The most Kùzu's page cache may take under this ceiling."""
        return max(MIN_POOL, self.bytes - PROCESS_RESERVE) // MIB * MIB

    @property
    def hnsw_pool_bytes(self) -> int:
        """The most Kùzu's page cache may take during a build's HNSW step under this ceiling."""
        return max(self.pool_bytes, (self.bytes - HNSW_RESERVE) // MIB * MIB)

    @property
    def mib(self) -> int:
        return self.bytes // MIB


def hnsw_bytes(vectors: int, dim: int, ml: int, mu: int, *, cached: bool, threads: int | None = None) -> int:
    """The page cache Kùzu 0.11.3's CREATE_VECTOR_INDEX takes for `vectors` vectors: the lower graph
    (`ml`) and the upper one (`mu`, a sample of the vectors), the node groups of edges its `threads`
    (Kùzu's default: one per core) write at the end, and with `cached` every vector."""
    lower = vectors * (math.ceil(SLOT_RATIO * ml) * SLOT_BYTES + LENGTH_BYTES)
    upper = int(vectors * UPPER_SHARE) * (math.ceil(SLOT_RATIO * mu) * SLOT_BYTES + LENGTH_BYTES)
    writing = min(vectors, NODE_GROUP * (threads or os.cpu_count() or 1)) * ml * EDGE_BYTES
    return lower + upper + writing + (vectors * (dim * 4 + LIST_ENTRY_BYTES) if cached else 0)


def hnsw_fits(pool: int, vectors: int, dim: int, ml: int, mu: int, threads: int | None = None) -> bool | None:
    """Whether the HNSW step over `vectors` fits in a page cache of `pool` bytes with the vectors cached
    (True), only with them read from their pages (False), or not at all (None)."""
    for cached in (True, False):
        if hnsw_bytes(vectors, dim, ml, mu, cached=cached, threads=threads) + HNSW_ROOM <= pool:
            return cached
    return None


def hnsw_plan(
    pool: int, wider: int, vectors: int, dim: int, ml: int, mu: int, threads: int | None = None
) -> tuple[int, bool | None]:
    """The page cache and variant (`hnsw_fits`) for the HNSW step over `vectors`: the cache the build has
    (`pool`) when the vectors fit there cached, else the `wider` one the ceiling allows that step
    (`MemoryCeiling.hnsw_pool_bytes`) when the step fits there at all."""
    cached = hnsw_fits(pool, vectors, dim, ml, mu, threads)
    if cached is not True and wider > pool:
        fits = hnsw_fits(wider, vectors, dim, ml, mu, threads)
        if fits is not None:
            return wider, fits
    return pool, cached


def batch_bytes(hubs: int, dim: int) -> int:
    """About what one write batch of `hubs` hubs adds to Kùzu's write-ahead log (and holds in memory)."""
    text = 6 * dim + TEXT_ROW_BYTES  # the float32 vector column and its float16 copy
    return hubs * (TEXTS_PER_HUB * text + PATHS_PER_HUB * PATH_ROW_BYTES + VECTORS_PER_HUB * VECTOR_ROW_BYTES)


def write_bytes(rows: int, dim: int, checkpoint: int, batch: int) -> int:
    """The page cache Kùzu 0.11.3 takes for a build's write batches when a text table's last node group
    grows to `rows` rows (at most NODE_GROUP). A checkpoint that adds rows there rewrites the group's
    FLOAT[dim] column whole: read into a buffer rounded up to a power of two and, once the rows outgrow
    it, copied into a new one beside it (storage/table/column.cpp, list_chunk_data.cpp): at most twice
    the power of two below the column's size. The rows committed since the last checkpoint (`checkpoint`
    bytes of log and the `batch` that passes it) are held in memory, and copied once more while the
    checkpoint merges them. Checked: 6,400-row commits fail in a 256 MiB cache at the one that takes the
    table past 87,381 rows (128 MiB of vectors), and pass in 336 MiB up to 140,000 rows."""
    column = 4 * dim * min(rows, NODE_GROUP)
    below = 1 << (column.bit_length() - 1) if column else 0
    return 2 * below + 2 * (checkpoint + batch) + WRITE_ROOM


def write_fits(pool: int, rows: int, dim: int, batch: int) -> bool:
    """Whether a build's write batches fit in a page cache of `pool` bytes (with the checkpoint interval
    a build uses there, `build_checkpoint_bytes`)."""
    return write_bytes(rows, dim, build_checkpoint_bytes(pool), batch) <= pool


def write_pool_need(rows: int, dim: int, batch: int) -> int:
    """The smallest page cache (whole MiB, at least MIN_POOL) a build's write batches fit in."""
    low, high = MIN_POOL // MIB, 1 << 20  # in MiB: fitting only grows with the cache (a quarter as fast)
    while low < high:
        mid = (low + high) // 2
        if write_fits(mid * MIB, rows, dim, batch):
            high = mid
        else:
            low = mid + 1
    return low * MIB


def build_need(vectors: int, dim: int, ml: int, mu: int, *, rows: int = 0, batch: int = 0) -> int:
    """The smallest ceiling a build fits in (whole MiB): its write batches (a text table's last node group
    growing to `rows` rows, `batch` bytes a batch) beside PROCESS_RESERVE, and its HNSW step over `vectors`
    vectors beside HNSW_RESERVE."""
    step = HNSW_RESERVE + hnsw_bytes(vectors, dim, ml, mu, cached=False) + HNSW_ROOM
    need = max(PROCESS_RESERVE + write_pool_need(rows, dim, batch), step)
    return -(-need // MIB) * MIB


def check_build(
    ceiling: MemoryCeiling,
    pool: int,
    triples: int,
    dim: int,
    ml: int,
    mu: int,
    *,
    write_pool: int | None = None,
    batch: int = 0,
) -> None:
    """Refuse, before a build starts, one whose write batches cannot fit in the page cache `write_pool`
    they get (default: the ceiling's; `batch`: a batch's bytes) or whose HNSW step cannot fit in the page
    cache `pool` that `ceiling` allows that step. Its texts are estimated from the graph's `triples`."""
    texts = int(triples * TEXTS_PER_TRIPLE)
    rows = min(texts, NODE_GROUP)
    write_pool = ceiling.pool_bytes if write_pool is None else write_pool
    need = build_need(texts, dim, ml, mu, rows=rows, batch=batch)
    graph = f"{triples:,} triples make about {texts:,} texts"
    if not write_fits(write_pool, rows, dim, batch):
        raise _too_small(ceiling, "index this graph", graph, _writes_need(write_pool, rows, dim, batch), need)
    if hnsw_fits(pool, texts, dim, ml, mu) is None:
        step = hnsw_bytes(texts, dim, ml, mu, cached=False) + HNSW_ROOM
        what = f"its HNSW index needs about {step // MIB:,} MiB of Kùzu's page cache besides {HNSW_RESERVE // MIB} MiB"
        raise _too_small(ceiling, "index this graph", graph, what, need)


def check_writes(ceiling: MemoryCeiling, pool: int, stored: int, dim: int, batch: int, batch_texts: int) -> None:
    """Refuse, before an update starts, one whose write batches cannot fit in the page cache `pool`: they
    add texts (`batch_texts` a batch) to a text table of `stored` texts, so to its last node group."""
    rows = min(stored % NODE_GROUP + batch_texts, NODE_GROUP)
    if not write_fits(pool, rows, dim, batch):
        need = -(-(PROCESS_RESERVE + write_pool_need(rows, dim, batch)) // MIB) * MIB
        graph = f"the index holds {stored:,} texts"
        raise _too_small(ceiling, "update this index", graph, _writes_need(pool, rows, dim, batch), need)


def _writes_need(pool: int, rows: int, dim: int, batch: int) -> str:
    return (
        f"its write batches need about {write_pool_need(rows, dim, batch) // MIB:,} MiB of Kùzu's page cache "
        f"(it has {pool // MIB:,}; each checkpoint rewrites the vectors of up to {NODE_GROUP:,} texts) besides "
        f"{PROCESS_RESERVE // MIB} MiB"
    )


def _too_small(ceiling: MemoryCeiling, task: str, graph: str, what: str, need: int) -> MemoryCeilingError:
    return MemoryCeilingError(
        f"the memory ceiling ({ceiling.source}: {ceiling.mib:,} MiB) is too small to {task}: {graph}; "
        f"{what} for the process and the model; set --memory / KGQA_MEMORY to at least {need // MIB:,} MiB "
        "(nothing was written)"
    )


def build_checkpoint_bytes(pool: int) -> int:
    """The write-ahead log a build lets grow between checkpoints with a page cache of `pool` bytes:
    an eighth of the cache, at most BUILD_CHECKPOINT_CAP, never under Kùzu's default."""
    return max(KUZU_CHECKPOINT_BYTES, min(BUILD_CHECKPOINT_CAP, pool // BUILD_CHECKPOINT_SHARE // MIB * MIB))
