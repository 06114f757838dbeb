"""bench/speed_probes.py: a worker paused for speed probes (real processes, real signals), its pauses
left out of its time, and the reference scaled to the machine's speed during the build."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from speed_probes import run_paused, speed_matched, write_probe_texts

#: A worker that counts its own running time in 50 ms ticks for about 1.2 s and prints it as JSON.
WORKER = (
    "import json, time\n"
    "start = time.perf_counter(); ticks = 0\n"
    "while ticks < 24:\n"
    "    time.sleep(0.05); ticks += 1\n"
    "print('progress', flush=True)\n"
    "print(json.dumps({'seconds': time.perf_counter() - start, 'ticks': ticks}))\n"
)


def test_the_worker_is_stopped_while_each_probe_runs(tmp_path):
    states: list[str] = []
    pid_file = tmp_path / "pid"

    def state(pid: int) -> str:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]  # "T": stopped

    def probe() -> dict:
        until = time.monotonic() + 5
        while not pid_file.is_file() and time.monotonic() < until:  # a slow start on a busy machine
            time.sleep(0.01)
        pid = int(pid_file.read_text())
        while state(pid) != "T" and time.monotonic() < until:  # the signal is delivered asynchronously
            time.sleep(0.01)
        states.append(state(pid))
        time.sleep(0.4)
        states.append(state(pid))
        return {"seconds": 0.1, "texts": 10}

    script = f"import os; open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n" + WORKER
    result, probes, paused = run_paused([sys.executable, "-c", script], dict(os.environ), 0.3, probe)
    assert result["ticks"] == 24
    assert len(probes) >= 2 and set(states) == {"T"}, states
    assert paused >= 0.4 * len(probes)
    # the worker's own clock ran on through the pauses inside its timed loop (the first and last probe may
    # fall in its start-up or exit on a busy machine): its seconds hold them, which the caller takes out
    assert result["seconds"] >= 1.2 + 0.35 * (len(probes) - 2)
    ats = [p["at_s"] for p in probes]  # the worker's unpaused seconds: 0.3 apart, not 0.7 (with the pauses)
    assert ats == sorted(ats) and all(0.25 <= b - a <= 0.65 for a, b in zip(ats, ats[1:])), ats


def test_a_failed_worker_is_reported_with_its_error(tmp_path):
    with pytest.raises(SystemExit, match="no such graph"):
        run_paused(
            [sys.executable, "-c", "import sys; sys.exit('no such graph')"],
            dict(os.environ),
            5.0,
            lambda: {"seconds": 1.0, "texts": 1},
        )


def test_the_reference_is_scaled_to_the_speed_during_the_build():
    # the machine took twice as long per probe text during the build as beside the reference
    during = [{"seconds": 2.0, "texts": 100}, {"seconds": 6.0, "texts": 100}]
    beside = [{"seconds": 2.0, "texts": 100}, {"seconds": 2.0, "texts": 100}]
    assert speed_matched(1000.0, during, beside) == pytest.approx(2000.0)
    assert speed_matched(1000.0, [], beside) is None
    assert speed_matched(1000.0, during, []) is None


def test_probe_texts_are_the_graphs_triples_seeded(tmp_path):
    graph = tmp_path / "g.csv"
    graph.write_text(
        "subject,predicate,object,subject_label,object_label\n"
        + "".join(f"P{i},author,A{i},Paper {i},Author {i}\n" for i in range(50))
        + "P9,year,2019,Paper 9,\n",
        encoding="utf-8",
    )
    first = json.loads(write_probe_texts(graph, tmp_path / "a.json", n=20).read_text())
    again = json.loads(write_probe_texts(graph, tmp_path / "b.json", n=20).read_text())
    assert first == again and len(first) == len(set(first)) == 20
    assert all(t.startswith("Paper ") and (" author Author " in t or t.endswith(" year 2019")) for t in first)
