"""Soak test of `kgqa serve` (issue 17): N questions (default 2,000) from 8 concurrent clients on loopback,
bounded in count and in time, while `kgqa index update --dirty` is tried against the same database.

    python bench/soak_serve.py [--db /tmp/rel2/orkg.kuzu] [--graph FILE] [--questions CSV]
                               [--count 2000] [--clients 8] [--max-seconds 600] [--workers 2] [--queue 16]

The database is copied (the soak marks hubs dirty in the copy) from --db, or built from --graph (`kgqa demo`'s
graph with `--graph demo`). Before the service starts, one triple is added so that `index update --dirty`
has hubs to rebuild. Kùzu allows one writer process, or any number of read-only ones, and `kgqa serve` holds
the database read-only for its whole life: the update is tried every few seconds during the soak and what
it answers is recorded (expected: exit 4, the database is busy, nothing changed); after the service has
stopped it runs once more and must rebuild the dirty hubs. Reported: replies by status (errors must be 0
apart from 503s, which the service documents for a full queue), client-side latency p50/p95/p99 of the 200s,
the service's RSS after a warm-up and after the soak (growth <= 10 %), and every update attempt.
The table goes to stdout and to bench/results/soak.md, with the machine, its load and the mode (offline).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from serve_latency import env, kgqa_cmd, questions, rss_mib  # noqa: E402

SHARED = HERE.parents[1] / "shared" / "bench" / "orkg"
RSS_GROWTH_LIMIT = 0.10


def prepare(args: argparse.Namespace, work: Path) -> Path:
    """A fresh database for the soak: a copy of --db, or --graph loaded and indexed; one triple added."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    db = work / "soak.kuzu"
    if args.graph:
        from kgqa.demo import demo_graph_path

        graph = demo_graph_path() if args.graph == "demo" else Path(args.graph)
        for cmd in (("init",), ("load", str(graph)), ("index", "build", "--hub-type", "Paper")):
            subprocess.run(kgqa_cmd(db, "-q", *cmd), check=True, env=env())
    else:
        for src in args.db.parent.glob(args.db.name + "*"):
            if not src.name.endswith(".serve.json"):
                shutil.copy2(src, work / src.name.replace(args.db.name, db.name))
    paper = json.loads(
        subprocess.run(
            kgqa_cmd(db, "index", "status", "--json"), check=True, env=env(), capture_output=True, text=True
        ).stdout
    )
    print(f"index: {paper['hubs']} hubs", file=sys.stderr)
    return db


def mark_dirty(db: Path, subject: str) -> None:
    """Add one triple to hub `subject`, so `index update --dirty` has work."""
    subprocess.run(
        kgqa_cmd(
            db, "-q", "triples", "add", "-s", subject, "-p", "soak note", "-o", f"soak {time.time():.0f}", "--literal"
        ),
        check=True,
        env=env(),
    )


def update(db: Path) -> dict:
    t0 = time.perf_counter()
    out = subprocess.run(kgqa_cmd(db, "index", "update", "--dirty"), capture_output=True, text=True, env=env())
    text = (out.stdout + out.stderr).strip().splitlines()
    return {"exit": out.returncode, "s": time.perf_counter() - t0, "said": text[-1] if text else ""}


def soak(
    url: str, bodies: list[dict], count: int, clients: int, max_s: float
) -> tuple[Counter, list[float], float, list[str]]:
    """`count` requests from `clients` threads (stops early at `max_s`); (statuses, latencies of 200s, wall,
    first error bodies)."""
    lock = threading.Lock()
    state = {"next": 0}
    statuses: Counter = Counter()
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + max_s

    def client() -> None:
        while time.monotonic() < deadline:
            with lock:
                i = state["next"]
                if i >= count:
                    return
                state["next"] += 1
            body = json.dumps(bodies[i % len(bodies)]).encode()
            req = urllib.request.Request(
                url + "/v1/ask", data=body, method="POST", headers={"Content-Type": "application/json"}
            )
            t0 = time.perf_counter()
            try:
                with urllib.request.urlopen(req, timeout=120) as resp:
                    resp.read()
                    code = resp.status
            except urllib.error.HTTPError as exc:
                code = exc.code
                detail = exc.read()[:200].decode(errors="replace")
                if code == 503:
                    time.sleep(float(exc.headers.get("Retry-After", "1")) / 10)  # a polite, quick client
                elif len(errors) < 5:
                    errors.append(f"{code}: {detail}")
            except OSError as exc:  # refused, reset, timed out
                code = 0
                if len(errors) < 5:
                    errors.append(f"connection: {exc}")
            elapsed = time.perf_counter() - t0
            with lock:
                statuses[code] += 1
                if code == 200:
                    latencies.append(elapsed)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses, latencies, time.perf_counter() - t0, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, default=Path("/tmp/rel2/orkg.kuzu"))
    ap.add_argument("--graph", help="build from this graph file instead ('demo': the demo graph)")
    ap.add_argument("--questions", type=Path, default=SHARED / "questions_dev_gv3.csv")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--max-seconds", type=float, default=600)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--queue", type=int, default=16)
    ap.add_argument("--update-every", type=float, default=5.0, help="seconds between update attempts")
    ap.add_argument("--work", type=Path, default=Path("/tmp/rel2/soak"))
    ap.add_argument("--out", type=Path, default=HERE / "results" / "soak.md")
    args = ap.parse_args()

    qs = questions(args.questions)
    bodies = [{"question": q, "topic_entity": t, "strategy": "traversal"} for q, t in qs]
    db = prepare(args, args.work)
    mark_dirty(db, qs[0][1] if not args.graph else "P01")
    load_before = os.getloadavg()[0]
    proc, url = start_service_with(db, args.workers, args.queue)
    updates: list[dict] = []
    stop = threading.Event()

    def updater() -> None:
        while not stop.wait(args.update_every):
            updates.append(update(db))

    try:
        # warm-up: every distinct question twice, so each worker has read what they touch (the Kùzu page
        # cache and the hub-vector cache grow until then); growth is measured from there
        warm, _, _, _ = soak(url, bodies, 2 * len(bodies), args.clients, 300)
        rss_before = rss_mib(proc.pid)[0]
        samples: list[tuple[float, float]] = []

        def sampler() -> None:
            t0 = time.monotonic()
            while not stop.wait(args.max_seconds / 8):
                samples.append((time.monotonic() - t0, rss_mib(proc.pid)[0]))

        threads = [threading.Thread(target=updater), threading.Thread(target=sampler)]
        for th in threads:
            th.start()
        statuses, lat, wall, errors = soak(url, bodies, args.count, args.clients, args.max_seconds)
        stop.set()
        for th in threads:
            th.join()
        rss_after, peak = rss_mib(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        exit_code = proc.wait(timeout=120)
    after_stop = update(db)
    load_after = os.getloadavg()[0]

    sent = sum(statuses.values())
    bad = sent - statuses[200] - statuses[503]
    ms = np.array(lat) * 1000 if lat else np.array([float("nan")])
    growth = rss_after / rss_before - 1
    busy = Counter((u["exit"], u["said"][:120]) for u in updates)
    graph = "demo graph (kgqa demo, 35 Paper hubs)" if args.graph == "demo" else (args.graph or f"ORKG GV3 ({args.db})")
    conditions = (
        f"{graph}; {len(bodies)} distinct questions cycled, traversal from the CSV's topic entity, default "
        f"30 hubs / 10 paths; offline mode (no LLM, 0 tokens), Kùzu store, all-MiniLM-L6-v2 (KGQA_EMBEDDER="
        f"{os.environ.get('KGQA_EMBEDDER', 'auto')}) on the "
        f"CPU; `kgqa serve --workers {args.workers} --queue {args.queue}`, {args.clients} client threads "
        f"(urllib), bounded at {args.count} questions and {args.max_seconds:.0f} s; "
        f"{platform.node()} {os.cpu_count()} cores, shared with other developers' jobs, load average "
        f"{load_before:.1f} before / {load_after:.1f} after; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}."
    )
    lines = [
        "# `kgqa serve` soak (bench/soak_serve.py)",
        "",
        conditions,
        "",
        "| questions sent | 200 | 503 (documented: queue full) | other errors (must be 0) | wall s | q/s "
        "| p50 ms | p95 ms | p99 ms | RSS MiB after warm-up | RSS MiB after | growth (≤ 10 %) | peak RSS MiB "
        "| SIGTERM exit |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        f"| {sent} | {statuses[200]} | {statuses[503]} | {bad} | {wall:.1f} | {statuses[200] / wall:.1f} "
        f"| {np.percentile(ms, 50):.0f} | {np.percentile(ms, 95):.0f} | {np.percentile(ms, 99):.0f} "
        f"| {rss_before:.0f} | {rss_after:.0f} | {growth * 100:+.1f} % ({'yes' if growth <= RSS_GROWTH_LIMIT else '**no**'}) "
        f"| {peak:.0f} | {exit_code} |",
        "",
        f"Warm-up before the soak (every distinct question twice; RSS is measured from its end): "
        f"{sum(warm.values())} questions ({dict(warm)}).",
        "",
        f"`kgqa index update --dirty` tried every {args.update_every:.0f} s while the service ran: "
        f"{len(updates)} attempts, "
        + "; ".join(f"{n}× exit {code}: “{said}”" for (code, said), n in busy.items())
        + (f" (median {np.median([u['s'] for u in updates]):.1f} s each)." if updates else "."),
        "RSS during the soak (s: MiB): " + ", ".join(f"{t:.0f}: {m:.0f}" for t, m in samples) + ".",
        f"After the service stopped: exit {after_stop['exit']} in {after_stop['s']:.1f} s: “{after_stop['said']}”.",
    ]
    if errors:
        lines += ["", "First errors:", *[f"- `{e}`" for e in errors]]
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    if bad:
        raise SystemExit(1)


def start_service_with(db: Path, workers: int, queue: int) -> tuple[subprocess.Popen, str]:
    """`kgqa serve` on a free loopback port with this queue size."""
    from kgqa.serve_state import read_state

    proc = subprocess.Popen(
        kgqa_cmd(db, "-q", "serve", "--port", "0", "--workers", str(workers), "--queue", str(queue)), env=env()
    )
    started = time.perf_counter()
    while (state := read_state(db)) is None or state.pid != proc.pid:
        if proc.poll() is not None or time.perf_counter() - started > 300:
            raise SystemExit(f"kgqa serve did not start (exit {proc.poll()})")
        time.sleep(0.1)
    return proc, state.url


if __name__ == "__main__":
    main()
