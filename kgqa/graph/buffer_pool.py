"""Kùzu's page cache (buffer pool) sized from the database and the machine.

Kùzu's default lets the cache grow to 80 % of the machine's memory; a fixed small cap stops an
index build once the database outgrows it (Kùzu 0.11 needs cache that grows with the database).
The size here is a few times the database's size on disk plus headroom for the queries and, when
the database is opened for writing, for an index build that grows it; bounded by a fraction of
the memory available now, and by the page cache's share of the memory ceiling (`--memory` /
KGQA_MEMORY, kgqa/memory.py). `KGQA_BUFFER_POOL_MIB` (Settings.buffer_pool_mib) overrides it.
"""

from __future__ import annotations

from pathlib import Path

from kgqa.memory import proc_bytes, total_memory

MIB = 2**20
#: The cache is this many times the database's size on disk (its pages, plus room to evict).
DB_FACTOR = 2
#: Room for query intermediates (path enumeration, the HNSW build) when opened read-only.
READ_HEADROOM = 512 * MIB
#: Room for an index build that grows the database (a Kùzu-stored index is about 14 KiB per
#: triple: 1.4 GiB at 10^5 triples, bench/results/scale.md).
WRITE_HEADROOM = 2048 * MIB
#: Never more than this share of the memory available when the database is opened.
AVAILABLE_SHARE = 0.5
#: Never less than this (Kùzu cannot do much with less).
FLOOR = 256 * MIB


def database_bytes(path: str | Path) -> int:
    """The database's size on disk: its file (or directory) and its write-ahead log."""
    path = Path(path)
    total = 0
    for part in (path, path.with_name(path.name + ".wal")):
        if part.is_file():
            total += part.stat().st_size
        elif part.is_dir():
            total += sum(f.stat().st_size for f in part.rglob("*") if f.is_file())
    return total


def available_bytes() -> int:
    """The memory available to new allocations now (Linux MemAvailable; else physical memory)."""
    available = proc_bytes("/proc/meminfo", "MemAvailable")
    return total_memory() if available is None else available


def buffer_pool_bytes(
    path: str | Path,
    *,
    read_only: bool = False,
    override_mib: int | None = None,
    available: int | None = None,
    cap: int | None = None,
) -> int:
    """The buffer pool size for opening the database at `path`: `override_mib` when given, else
    DB_FACTOR × its size on disk + headroom (more when writable), between FLOOR and
    AVAILABLE_SHARE of `available` (default: the memory available now), and at most `cap` (the page
    cache's share of the memory ceiling)."""
    if override_mib:
        return override_mib * MIB
    want = DB_FACTOR * database_bytes(path) + (READ_HEADROOM if read_only else WRITE_HEADROOM)
    ceiling = int(AVAILABLE_SHARE * (available_bytes() if available is None else available))
    if cap is not None:
        ceiling = min(ceiling, cap)
    size = max(FLOOR, min(want, ceiling))
    return (size + MIB - 1) // MIB * MIB
