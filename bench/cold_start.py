"""Wall time of `kgqa --help`, `kgqa stats` and a cold in-process `kgqa ask` (a new process each time),
for one or more source trees in one run, alternating between them so that a busy machine hurts each alike.

    python bench/cold_start.py --db /tmp/onnx/orkg.kuzu [--tree before=/path/to/old/checkout] [--repeat 5]

The current checkout is always measured (as "this tree"); `--tree NAME=PATH` adds a source tree run with
PYTHONPATH=PATH:PATH/cli (e.g. `git archive` of an older commit)."""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tables import emit

QUESTION = ("Which papers were published at ICSA in 2019?", "--topic-entity", "R659055")
COMMANDS = {"kgqa --help": ("--help",), "kgqa stats": ("stats",), "kgqa ask (cold, in-process)": ("ask", *QUESTION)}


def run(args: tuple[str, ...], env: dict[str, str]) -> float:
    started = time.perf_counter()
    # cwd: a folder without a kgqa package, or `python -m` would import the one in the current folder
    proc = subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"kgqa {' '.join(args)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--tree", action="append", default=[], help="NAME=PATH of another source tree")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    base = dict(os.environ, KGQA_DB=str(Path(args.db).resolve()), HF_HUB_OFFLINE="1")
    trees = {}
    for spec in args.tree:
        name, path = spec.split("=", 1)
        trees[name] = dict(base, PYTHONPATH=f"{path}{os.pathsep}{Path(path) / 'cli'}")
    trees["this tree"] = base
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.repeat):
        for label, cmd in COMMANDS.items():
            for name, env in trees.items():
                times.setdefault((name, label), []).append(run(cmd, env))
    lines = [
        f"Wall seconds per command (new process each), median and min of {args.repeat}, trees alternating; "
        f"{os.cpu_count()} cores, {platform.machine()}, shared machine (other work running); offline mode.",
        "",
        "| command | " + " | ".join(f"{n} median | {n} min" for n in trees) + " |",
        "|---|" + "---:|---:|" * len(trees),
    ]
    for label in COMMANDS:
        cells = [f"{statistics.median(times[(n, label)]):.2f} | {min(times[(n, label)]):.2f}" for n in trees]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    emit(lines, args.out)


if __name__ == "__main__":
    main()
