"""A full disk, for real: the database lives on a small tmpfs mounted for the test, a filler file takes
the space, and `kgqa load` / `kgqa triples add` then exit 12 (StorageFullError) with a message that says
what is short and that nothing was written; the stored graph is intact and, once space is freed, the
same load succeeds. Kùzu 0.11.3 itself aborts the process (exit 134) when its log cannot be written, so
the writers check the free space first (kgqa/graph/disk_space.py).

Mounting needs root with CAP_SYS_ADMIN (the dev box and CI run as root); elsewhere the tests skip and say
why."""

from __future__ import annotations

import csv
import os
import subprocess
from pathlib import Path

import pytest
from serve_helpers import kgqa

from kgqa.demo import demo_graph_path
from kgqa.graph.disk_space import free_bytes, needed_bytes

MIB = 1024 * 1024


@pytest.fixture
def small_disk(tmp_path):
    """A 40 MiB tmpfs mounted at tmp_path/disk (unmounted afterwards); skips where mounting is refused."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (a full disk is simulated with a real file system)")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=40m", "tmpfs", str(where)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs CAP_SYS_ADMIN): {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(disk: Path, leave: int, name: str = "filler") -> Path:
    """A filler file `name` that leaves about `leave` bytes free on `disk`."""
    filler = disk / name
    free = free_bytes(disk) or 0
    with open(filler, "wb") as f:
        f.write(b"\0" * max(free - leave, 0))
    return filler


def _csv(path: Path, rows: int) -> Path:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["subject", "predicate", "object", "subject_label", "object_label"])
        for i in range(rows):
            w.writerow([f"S{i}", "mentions", f"O{i}", f"subject {i} " + "x" * 60, f"object {i} " + "y" * 60])
    return path


def _triples(db: Path) -> str:
    out = kgqa(db, "stats")
    assert out.returncode == 0, out.stderr
    return next(line for line in out.stdout.splitlines() if line.startswith("triples:"))


def test_load_and_add_on_a_full_disk_exit_12_and_keep_the_graph(small_disk, tmp_path):
    db = small_disk / "kg.kuzu"
    assert kgqa(db, "init").returncode == 0
    loaded = kgqa(db, "load", str(demo_graph_path()))
    assert loaded.returncode == 0, loaded.stderr
    before = _triples(db)
    assert before == "triples: 446"
    big = _csv(tmp_path / "more.csv", 8_000)  # about 1.3 MiB: the load needs more than is left
    filler = _fill(small_disk, needed_bytes(0) + MIB)
    assert needed_bytes(big.stat().st_size) > (free_bytes(small_disk) or 0)

    refused = kgqa(db, "load", str(big))
    assert refused.returncode == 12, (refused.returncode, refused.stderr)
    assert "not enough free disk space for loading" in refused.stderr and "nothing was written" in refused.stderr
    assert "IOException" not in refused.stderr and "Traceback" not in refused.stderr
    assert _triples(db) == before

    last = _fill(small_disk, 0, "last")  # the disk is full to the last byte
    added = kgqa(db, "triples", "add", "-s", "X1", "-p", "knows", "-o", "X2")
    assert added.returncode == 12, (added.returncode, added.stderr)
    assert "not enough free disk space for adding 1 triple:" in added.stderr
    assert _triples(db) == before

    filler.unlink()
    last.unlink()  # space again: the same load goes through and the earlier triples are still there
    again = kgqa(db, "load", str(big))
    assert again.returncode == 0, again.stderr
    assert _triples(db) == "triples: 8446"
