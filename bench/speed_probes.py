"""The machine's embedding speed across a long build, so that the build is compared with the model alone
at the speed the machine had while it ran (bench/scale.py).

On a shared machine the model alone ran at 462 to 637 texts/s on one sample within a quarter of an hour
(docs/scale.md, 29 November 2026): a one-minute reference after a 76-minute build gives any ratio. Here
the build's worker is paused (SIGSTOP) every `every` seconds while a probe process embeds a fixed set of
texts alone, then resumed (SIGCONT); the pauses are left out of the build's time. The same probe runs
beside the reference, and the reference is scaled by the ratio of the mean seconds per probe text during
the build to that beside the reference (`speed_matched`)."""

from __future__ import annotations

import csv
import json
import os
import random
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path


def write_probe_texts(graph_csv: Path, out: Path, n: int = 2000, seed: int = 0) -> Path:
    """A seeded sample of `n` of the graph's triples, each written as one text ("subject predicate object").
    The rows are read as a stream and sampled as they pass (reservoir sampling): a 10^6 graph's rows are never
    held at once beside the paused build."""
    rng = random.Random(seed)
    chosen: list[dict[str, str]] = []
    with graph_csv.open(encoding="utf-8", newline="") as f:
        for seen, row in enumerate(csv.DictReader(f)):
            if seen < n:
                chosen.append(row)
            elif (slot := rng.randrange(seen + 1)) < n:
                chosen[slot] = row
    texts = [
        f"{r.get('subject_label') or r['subject']} {r['predicate']} {r.get('object_label') or r['object']}"
        for r in chosen
    ]
    out.write_text(json.dumps(texts), encoding="utf-8")
    return out


def run_paused(
    cmd: Sequence[str], env: dict[str, str], every: float, probe: Callable[[], dict]
) -> tuple[dict, list[dict], float]:
    """Run the worker `cmd` (its last stdout line is its JSON result), pausing it every `every` seconds for
    `probe()`; returns the result, the probes (each with `at_s`, the worker's unpaused seconds by then),
    and the seconds it was paused."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(list(cmd), stdout=out, stderr=err, text=True, env=env)
        probes: list[dict] = []
        paused, started = 0.0, time.perf_counter()
        while True:
            try:
                proc.wait(timeout=every)
                break
            except subprocess.TimeoutExpired:
                pass
            stopped = time.perf_counter()
            at = stopped - started - paused  # the worker's own seconds so far
            os.kill(proc.pid, signal.SIGSTOP)
            try:
                result = probe()
            finally:
                os.kill(proc.pid, signal.SIGCONT)
                paused += time.perf_counter() - stopped
            probes.append({**result, "at_s": at})
        out.seek(0)
        err.seek(0)
        return worker_result(cmd, proc.returncode, out.read(), err.read()), probes, paused


def worker_result(cmd: Sequence[str], returncode: int, stdout: str, stderr: str) -> dict:
    """A finished scale worker's JSON result (its last stdout line); SystemExit with the end of its
    stderr where it failed. `cmd`: the interpreter, the worker script and its arguments."""
    if returncode != 0:
        raise SystemExit(f"worker failed: {' '.join(cmd[2:])}\n{stderr[-3000:]}")
    return json.loads(stdout.strip().splitlines()[-1])


def speed_matched(reference_s: float, during: Sequence[dict], beside: Sequence[dict]) -> float | None:
    """The model-alone seconds at the machine's speed during the build: `reference_s` times the mean
    seconds per probe text during the build over that beside the reference (None without both)."""
    if not during or not beside:
        return None

    def per_text(probes: Sequence[dict]) -> float:
        return sum(p["seconds"] / p["texts"] for p in probes) / len(probes)

    return reference_s * per_text(during) / per_text(beside)
