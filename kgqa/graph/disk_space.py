"""Room on the disk before a write: Kùzu 0.11.3 aborts the whole process (std::terminate, exit 134) when
its write-ahead log cannot be written at COMMIT, so a full disk cannot be caught once the write runs.
The writers check the free space of the database's file system first and refuse with
`StorageFullError` (exit 12), nothing written, when it is short of what the write may need.

The estimate is measured, not exact (docs/reliability.md#a-full-disk): a CSV load peaked at 6.3 times
its file's size (the log plus the database's growth before the checkpoint), and a database needs some
room of its own even for one triple. A disk that fills while a write runs (another process writing)
can still end in Kùzu's abort; what was committed before stays either way."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kgqa.errors import StorageFullError

#: Free bytes every write needs: the log and the pages one small transaction and its checkpoint touch.
BASE_BYTES = 16 * 1024 * 1024
#: Free bytes a load needs per byte of its input files (measured: an 11 MiB CSV load peaked at 6.3 times its size).
PER_INPUT_BYTE = 8
#: Free bytes a write needs per triple given as records (`triples add`, the service's writes).
PER_RECORD = 2048


def needed_bytes(input_bytes: int = 0, records: int = 0) -> int:
    """The free space a write of `input_bytes` of files and `records` triples may need."""
    return BASE_BYTES + PER_INPUT_BYTE * input_bytes + PER_RECORD * records


def free_bytes(db_path: Path) -> int | None:
    """Free bytes on the file system of the database `db_path` (its folder when it does not exist yet);
    None when that cannot be read."""
    here = Path(db_path)
    while not here.exists() and here != here.parent:
        here = here.parent
    try:
        return shutil.disk_usage(here).free
    except OSError:
        return None


def require_room(db_path: Path, what: str, *, input_bytes: int = 0, records: int = 0) -> None:
    """Raise StorageFullError, before anything is written, when the database's disk has less free space
    than `what` (a load of `input_bytes`, `records` triples) may need."""
    free = free_bytes(db_path)
    need = needed_bytes(input_bytes, records)
    if free is not None and free < need:
        raise StorageFullError(
            f"not enough free disk space for {what}: {_mib(free)} free on the disk of {db_path}, about "
            f"{_mib(need)} needed; nothing was written and the stored graph is unchanged. Free some space "
            "and run the command again"
        )


def files_size(paths: list[str | os.PathLike[str]]) -> int:
    """The total size of the files (0 for one that cannot be read: its own error comes later)."""
    total = 0
    for p in paths:
        try:
            total += os.path.getsize(p)
        except OSError:
            pass
    return total


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB"
