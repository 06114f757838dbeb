"""Who holds a Kùzu database file open: a running `kgqa serve` (its state file), else the process
holding the file's lock (Linux /proc/locks), named by its command line."""

from __future__ import annotations

import os
from pathlib import Path


def _lock_holder(path: Path) -> int | None:
    """The pid holding a POSIX lock on `path` (Linux), or None."""
    try:
        inode = os.stat(path).st_ino
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if len(parts) >= 6 and parts[5].rsplit(":", 1)[-1] == str(inode):
            try:
                pid = int(parts[4])
            except ValueError:
                continue
            if pid != os.getpid():
                return pid
    return None


def _command(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    words = [w.decode("utf-8", "replace") for w in raw.split(b"\0") if w]
    if len(words) > 2 and words[1:3] == ["-m", "kgqa_cli.main"]:
        words = ["kgqa", *words[3:]]
    elif words and words[0].endswith("/python") and len(words) > 1 and words[1].endswith("/kgqa"):
        words = ["kgqa", *words[2:]]
    elif words and Path(words[0]).name == "kgqa":
        words = ["kgqa", *words[1:]]
    text = " ".join(words)
    return text if len(text) <= 120 else text[:117] + "..."


def describe_holder(path: str | os.PathLike[str]) -> str:
    """Who holds the database, in words for a 'database busy' message."""
    from kgqa.processes import pid_alive
    from kgqa.serve_state import read_state

    state = read_state(path)
    if state is not None and pid_alive(state.pid):
        return (
            f"`kgqa serve` (pid {state.pid}, {state.url}) holds it: `kgqa ask` goes through it; "
            "other writers wait until it stops"
        )
    pid = _lock_holder(Path(path))
    if pid is not None:
        command = _command(pid)
        return f"process {pid} holds it" + (f": `{command}`" if command else "")
    return (
        "another process holds it (e.g. a `kgqa cypher`, `kgqa sql` or `kgqa serve` session, an index "
        "build or update, or a load)"
    )
