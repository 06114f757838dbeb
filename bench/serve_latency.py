"""`kgqa serve` latency benchmark (issue 15) on ORKG GV3 and its 44 dev questions, offline mode.

    python bench/serve_latency.py [--db /tmp/serve/orkg.kuzu] [--rounds 3] [--workers 1,2]

The database is built once (init, load, `index build --hub-type Paper --start R659055`, as in
bench/orkg_dev.sh) and reused. For each --workers value a real `kgqa serve` process is started on a free
loopback port; then:
- latency: every dev question asked `--rounds` times, one at a time, over HTTP (traversal strategy from
  the topic entity the dev CSV gives; 30 hubs, 10 paths per hub), wall time of the HTTP round trip
  measured by the client, and the service's own `timings.total`;
- throughput: 4 client threads asking the 44 questions `--rounds` times between them, questions per second;
- `kgqa ask` wall time: a fresh `kgqa ask ... --topic-entity ...` process with the service running (median
  of 5), and once with `--no-server` (cold, in-process) for comparison;
- the service's resident memory (VmRSS, and VmHWM: its peak) after all of the above.
The table goes to stdout and to bench/results/serve.md, with the machine, its load and the mode.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared" / "bench" / "orkg"
TARGETS = {"p50_ms": 60, "p95_ms": 150, "qps4": 15, "cli_s": 0.4, "rss_mib": 1024}


def kgqa_cmd(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "kgqa_cli.main", "--db", str(db), *args]


def env() -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k != "KGQA_SERVE_TOKEN"}, "HF_HUB_OFFLINE": "1"}


def ensure_db(db: Path, graph: Path) -> None:
    """Build the ORKG database and index once; an existing one is reused."""
    if db.exists():
        return
    db.parent.mkdir(parents=True, exist_ok=True)
    for args in (("init",), ("load", str(graph)), ("index", "build", "--hub-type", "Paper", "--start", "R659055")):
        print("$ kgqa", *args, file=sys.stderr)
        subprocess.run(kgqa_cmd(db, "-q", *args), check=True, env=env())


def questions(path: Path) -> list[tuple[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return [(row["question"], row["topic_entity_id"]) for row in csv.DictReader(f)]


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(
        url + "/v1/ask", data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=120) as resp:
        return json.loads(resp.read())


def start_service(
    db: Path,
    workers: int,
    *,
    extra_env: dict[str, str] | None = None,
    state_path: Path | None = None,
    timeout: float = 300,
) -> tuple[subprocess.Popen, str]:
    """A `kgqa serve` process on a free loopback port, once its state file (at `state_path`, default
    beside `db`) names it; its URL."""
    from kgqa.serve_state import read_state

    cmd = kgqa_cmd(db, "-q", "serve", "--port", "0", "--workers", str(workers))
    proc = subprocess.Popen(cmd, env={**env(), **(extra_env or {})})
    started = time.perf_counter()
    while (state := read_state(state_path or db)) is None or state.pid != proc.pid:
        if proc.poll() is not None or time.perf_counter() - started > timeout:
            proc.kill()
            raise SystemExit(f"kgqa serve did not start (exit {proc.poll()})")
        time.sleep(0.1)
    print(f"service (workers={workers}) ready in {time.perf_counter() - started:.1f}s at {state.url}", file=sys.stderr)
    return proc, state.url


def rss_mib(pid: int) -> tuple[float, float]:
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def measure(db: Path, qs: list[tuple[str, str]], workers: int, rounds: int) -> dict:
    proc, url = start_service(db, workers)
    try:
        bodies = [{"question": q, "topic_entity": t, "strategy": "traversal"} for q, t in qs]
        post(url, bodies[0])  # one request to open the HTTP path
        wall, served = [], []
        for _ in range(rounds):
            for body in bodies:
                t0 = time.perf_counter()
                reply = post(url, body)
                wall.append(time.perf_counter() - t0)
                served.append(reply["timings"]["total"])
        work = [b for _ in range(rounds) for b in bodies]
        lock, done = threading.Lock(), []

        def client() -> None:
            while True:
                with lock:
                    if not work:
                        return
                    body = work.pop()
                post(url, body)
                with lock:
                    done.append(1)

        threads = [threading.Thread(target=client) for _ in range(4)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        qps = len(done) / (time.perf_counter() - t0)
        q, topic = qs[0]
        cli = []
        for _ in range(5):
            t0 = time.perf_counter()
            out = subprocess.run(
                kgqa_cmd(db, "ask", q, "--topic-entity", topic, "--json"),
                capture_output=True,
                text=True,
                env=env(),
                check=True,
            )
            cli.append(time.perf_counter() - t0)
            assert json.loads(out.stdout)["served_by"] == "service", out.stderr
        rss, hwm = rss_mib(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=120)
    ms = np.array(wall) * 1000
    return {
        "workers": workers,
        "n": len(wall),
        "p50_ms": float(np.percentile(ms, 50)),
        "p95_ms": float(np.percentile(ms, 95)),
        "p99_ms": float(np.percentile(ms, 99)),
        "served_p50_ms": float(np.percentile(np.array(served) * 1000, 50)),
        "qps4": qps,
        "cli_s": statistics.median(cli),
        "rss_mib": rss,
        "hwm_mib": hwm,
        "exit": code,
    }


def cold_cli(db: Path, q: str, topic: str) -> float:
    t0 = time.perf_counter()
    out = subprocess.run(
        kgqa_cmd(db, "ask", q, "--topic-entity", topic, "--json", "--no-server"),
        capture_output=True,
        text=True,
        env=env(),
        check=True,
    )
    assert json.loads(out.stdout)["served_by"] == "in-process"
    return time.perf_counter() - t0


def ok(value: float, target: float, higher_is_better: bool = False) -> str:
    good = value >= target if higher_is_better else value <= target
    return "yes" if good else "**no**"


def table(results: list[dict], cold: float, conditions: str) -> str:
    lines = [
        conditions,
        "",
        "| workers | p50 ms (≤ 60) | p95 ms (≤ 150) | p99 ms | service-side p50 ms | q/s, 4 clients (≥ 15) "
        "| `kgqa ask` wall, service running (≤ 0.4 s) | service RSS MiB (≤ 1024) | peak RSS MiB | SIGTERM exit |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['workers']} | {r['p50_ms']:.1f} ({ok(r['p50_ms'], TARGETS['p50_ms'])}) "
            f"| {r['p95_ms']:.1f} ({ok(r['p95_ms'], TARGETS['p95_ms'])}) | {r['p99_ms']:.1f} "
            f"| {r['served_p50_ms']:.1f} | {r['qps4']:.1f} ({ok(r['qps4'], TARGETS['qps4'], True)}) "
            f"| {r['cli_s']:.2f} s ({ok(r['cli_s'], TARGETS['cli_s'])}) "
            f"| {r['rss_mib']:.0f} ({ok(r['rss_mib'], TARGETS['rss_mib'])}) | {r['hwm_mib']:.0f} | {r['exit']} |"
        )
    lines += ["", f"`kgqa ask --no-server` (cold, in-process, model loaded in the process): {cold:.2f} s wall."]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, default=Path("/tmp/serve/orkg.kuzu"))
    ap.add_argument("--graph", type=Path, default=SHARED / "graph_gv3.json")
    ap.add_argument("--questions", type=Path, default=SHARED / "questions_dev_gv3.csv")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "serve.md")
    args = ap.parse_args()
    ensure_db(args.db, args.graph)
    qs = questions(args.questions)
    load_before = os.getloadavg()[0]
    results = [measure(args.db, qs, int(w), args.rounds) for w in args.workers.split(",")]
    cold = cold_cli(args.db, *qs[0])
    conditions = (
        f"ORKG GV3 ({len(qs)} dev questions × {args.rounds} rounds), offline mode (no LLM, 0 tokens), "
        f"traversal strategy from the CSV's topic entity, 30 hubs, 10 paths per hub, Kùzu store, "
        f"all-MiniLM-L6-v2 on the CPU by KGQA_EMBEDDER={os.environ.get('KGQA_EMBEDDER', 'auto')} (auto: ONNX "
        f"Runtime fp32 once its export is cached, else torch); {platform.node()} {os.cpu_count()} cores, "
        f"load average {load_before:.1f} before / {os.getloadavg()[0]:.1f} after (a machine shared with "
        f"other jobs: the timings are upper bounds); {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
        "Latency: HTTP round trip measured by a Python client (urllib), one question at a time."
    )
    text = table(results, cold, conditions)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("# `kgqa serve` latency (bench/serve_latency.py)\n\n" + text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
