"""The memory ceiling of a process that builds, updates or serves an index (`--memory`, `KGQA_MEMORY`).

The ceiling is split in two: a reserve for Python, the embedding model and one batch's texts and
vectors, and the rest for Kùzu's page cache (buffer pool), which also holds Kùzu's query intermediates
and, at the end of a first build, the HNSW index under construction. Kùzu 0.11.3 builds that index in
its page cache: its graph (`ml` neighbours of 8 bytes per vector, plus the sampled upper layer) and, when
`cache_embeddings` is on, every vector (dim × 4 bytes); with it off the vectors are read from their pages.
`hnsw_fits` picks the variant that fits, and `check_build` refuses a build whose HNSW step cannot fit,
before anything is written.
"""

from __future__ import annotations

import os
import re
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
#: The smallest page cache a build or a question is run with (Kùzu cannot do much with less).
MIN_POOL = 256 * MIB
#: Page-cache room a build's writes need besides the HNSW step (a batch's rows and a commit).
WRITE_ROOM = 128 * MIB
#: Unique embedded texts per triple in an index (1.60 at 10^5, 1.53 at 10^6, bench/results/scale.md);
#: rounded up, for the estimate made before a build starts.
TEXTS_PER_TRIPLE = 2.0
#: The HNSW upper layer samples this share of the vectors (Kùzu's `pu` default).
UPPER_SHARE = 0.05

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
    def mib(self) -> int:
        return self.bytes // MIB


def hnsw_bytes(vectors: int, dim: int, ml: int, mu: int, *, cached: bool) -> int:
    """The page cache Kùzu 0.11.3's CREATE_VECTOR_INDEX takes for `vectors` vectors: the lower graph
    (`ml` neighbour offsets each), the upper graph, and with `cached` every vector as float32."""
    graph = vectors * ml * 8 + int(vectors * UPPER_SHARE) * mu * 8
    return graph + (vectors * dim * 4 if cached else 0)


def hnsw_fits(pool: int, vectors: int, dim: int, ml: int, mu: int) -> bool | None:
    """Whether the HNSW step over `vectors` fits in a page cache of `pool` bytes with the vectors cached
    (True), only with them read from their pages (False), or not at all (None)."""
    for cached in (True, False):
        if hnsw_bytes(vectors, dim, ml, mu, cached=cached) + WRITE_ROOM <= pool:
            return cached
    return None


def build_need(vectors: int, dim: int, ml: int, mu: int) -> int:
    """The smallest ceiling a build whose HNSW step covers `vectors` vectors fits in (whole MiB)."""
    need = PROCESS_RESERVE + max(MIN_POOL, hnsw_bytes(vectors, dim, ml, mu, cached=False) + WRITE_ROOM)
    return -(-need // MIB) * MIB


def check_build(ceiling: MemoryCeiling, pool: int, triples: int, dim: int, ml: int, mu: int) -> None:
    """Refuse, before a build starts, one whose HNSW step cannot fit in the page cache `pool` allowed by
    `ceiling` (its texts estimated from the graph's `triples`)."""
    texts = int(triples * TEXTS_PER_TRIPLE)
    if hnsw_fits(pool, texts, dim, ml, mu) is not None:
        return
    need = build_need(texts, dim, ml, mu)
    raise MemoryCeilingError(
        f"the memory ceiling ({ceiling.source}: {ceiling.mib:,} MiB) is too small to index this graph: "
        f"{triples:,} triples make about {texts:,} texts, whose HNSW index needs about "
        f"{(need - PROCESS_RESERVE) // MIB:,} MiB of Kùzu's page cache besides {PROCESS_RESERVE // MIB} MiB for the "
        f"process and the model; set --memory / KGQA_MEMORY to at least {need // MIB:,} MiB "
        "(nothing was written)"
    )


def build_checkpoint_bytes(pool: int) -> int:
    """The write-ahead log a build lets grow between checkpoints with a page cache of `pool` bytes:
    an eighth of the cache, at most BUILD_CHECKPOINT_CAP, never under Kùzu's default."""
    return max(KUZU_CHECKPOINT_BYTES, min(BUILD_CHECKPOINT_CAP, pool // BUILD_CHECKPOINT_SHARE // MIB * MIB))
