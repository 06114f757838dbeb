"""Faults around `kgqa serve` (real service processes, real Kùzu): a database in a read-only directory
is refused with a clear message and exit code 4 before the model loads, while `kgqa ask` still reads it."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from serve_helpers import build_demo_db, kgqa

pytestmark = pytest.mark.slow


@contextmanager
def read_only_dir(folder: Path) -> Iterator[None]:
    """`folder` made unwritable for this user: chmod for a normal user; for root (whom modes do not stop)
    the immutable attribute, where chattr works here; else the test is skipped."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("running as root without a working chattr: no way to make a directory read-only")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=True)


def test_serve_in_a_read_only_directory_says_so(tmp_path, embedder):
    db = build_demo_db(tmp_path / "ro" / "demo.kuzu", embedder)
    with read_only_dir(db.parent):
        served = kgqa(db, "serve", "--port", "0")
        assert served.returncode == 4, served.stderr
        assert "Traceback" not in served.stderr
        assert f"its directory {db.parent} is not writable" in served.stderr, served.stderr
        assert "loading the model" not in served.stderr  # refused before the model loads
        assert list(db.parent.iterdir()) == [db]  # no probe or state file left behind
        asked = kgqa(db, "ask", "Which papers use a controlled experiment?")
        assert asked.returncode == 0, asked.stderr  # reading without a service still works
