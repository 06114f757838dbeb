"""Scale benchmark: what indexing and answering cost as the graph grows (issue 7).

    python bench/scale.py --sizes 1e4,1e5 [--graph-only 1e6] [--stores kuzu,pgvector]

Per size: a synthetic scholarly graph (`kgqa bench generate`, seeded) is loaded into a fresh
Kùzu database, and the HubLink index is built (offline: template verbalisation, all-MiniLM-L6-v2
on the CPU). Each step runs in its own process (bench/scale_worker.py), so its peak RSS is its own.

Measured per size and store: index build wall time split into phases (path enumeration,
verbalisation, embedding, writing, ANN index), the unique texts embedded, peak RSS, the index size
on disk, query latency p50/p95 for the direct and the traversal strategy (offline, model loaded),
and quality (recall, Hits@10) on the generated questions. In the same run, the embedding model alone
embeds the index's unique texts (`reference`): the build is compared with that time. The machine's
speed drifts within an hour, so the Kùzu build is paused every --probe-every seconds while a fixed text
set is embedded alone (bench/speed_probes.py), and so is the reference: the build's time leaves the
pauses out (its phases hold them), and the reference is scaled to the speed the probes saw during the
build ("at the build's speed" in the table). Last, an
incremental update of the Kùzu index: --update-changes papers gain a keyword and as many lose one,
then `index update --dirty` (time, hubs rebuilt, peak RSS).

pgvector: up to --pg-full-build-max triples the pgvector index is built from scratch (it embeds
again); above it, the Kùzu index is copied with `index sync` (no re-embedding), which measures
pgvector's own write and ANN phases; its build time is then that plus the embedding time measured
for Kùzu, and the table says so.

Questions are asked through a real `kgqa serve` process (one worker, one request at a time over HTTP,
latency as the client measures it; `--via process` asks in the measuring process instead). Each step's
result is kept in --work/n<size>/steps/; with --resume a size stopped half-way goes on from its last
finished step, and `--remeasure 1e6` measures a size again that OUT/scale.json already holds.

--graph-only sizes (e.g. 1e6, hours of embedding on 2 cores) are loaded and dry-run built: path
enumeration and verbalisation are measured, the texts to embed are counted, and the embedding and
writing times are extrapolated from the largest fully built size's per-text rates (marked "est.").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from speed_probes import run_paused, speed_matched, worker_result, write_probe_texts  # noqa: E402
from svgplot import line_chart  # noqa: E402

from kgqa.synthetic.generator import generate  # noqa: E402

PHASES = ("find_roots", "enumerate_paths", "verbalise", "embed", "write", "ann_index")


def _size(text: str) -> int:
    return int(float(text))


def _worker_env() -> dict[str, str]:
    return {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


def _worker_cmd(*args: str) -> list[str]:
    return [sys.executable, str(HERE / "scale_worker.py"), *args]


def _worker(*args: str, timeout: float | None = None) -> dict:
    cmd = _worker_cmd(*args)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=_worker_env())
    return worker_result(cmd, proc.returncode, proc.stdout, proc.stderr)


def _disk_mib(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 2**20


def _mib(value: float | None) -> str:
    """A size for the report's tables ("–" where it was not measured)."""
    return "–" if value is None else f"{value:.0f}"


def _graph_mib(load: dict, db: Path, *, built: bool) -> float | None:
    """The loaded graph's size on disk: kept with the load step, or measured now when no index has
    been built into the database since (a load step kept from before sizes were kept with it)."""
    if "disk_mib" in load:
        return float(load["disk_mib"])
    return None if built else _disk_mib(db)


def _pg_size_mib(dsn: str) -> float:
    import psycopg

    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE (n.nspname = 'kgqa' OR n.nspname LIKE 'kgqa\\_%%') AND c.relkind IN ('r', 'm')",
        ).fetchone()
    return float(row[0]) / 2**20


def _machine() -> str:
    cpus = os.cpu_count()
    mem = ""
    try:
        kib = int(next(line for line in open("/proc/meminfo") if line.startswith("MemTotal")).split()[1])
        mem = f", {kib / 2**20:.0f} GiB RAM"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{platform.machine()} {cpus} cores{mem}, {platform.system()}, Python {platform.python_version()}"


def _log(quiet: bool, msg: str) -> None:
    if not quiet:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def run_size(n: int, args: argparse.Namespace, dsn: str | None, full: bool, rates: dict) -> dict:
    """All measurements of one graph size."""
    work = Path(args.work) / f"n{n}"
    steps = work / "steps"
    if not args.resume or not steps.is_dir():  # no kept step: a fresh graph and database
        shutil.rmtree(work, ignore_errors=True)

    def step(
        name: str,
        *worker_args: str,
        disk: Path | None = None,
        pg: str | None = None,
        probed: bool = False,
        probed_beside: bool = False,
    ) -> dict:
        """One worker's measurement; with --resume, one this size already made is read back. With
        `disk`, the size of that database right after the step is kept with it (`disk_mib`); with `pg`,
        that of the index in that Postgres (`pg_mib`: the server is shared by the sizes). With `probed`
        (and --probe-every), the worker is paused for a speed probe every so often (`probes`), and its
        `seconds` leave the pauses out (`paused_s`); with `probed_beside`, a probe runs just before and
        just after it (`probes`), kept with the step's result."""
        kept = steps / f"{name}.json"
        if args.resume and kept.is_file():
            _log(args.quiet, f"{n}: {name} kept from {kept}")
            return json.loads(kept.read_text())
        if probed and args.probe_every > 0:
            out, probes, paused = run_paused(_worker_cmd(*worker_args), _worker_env(), args.probe_every, probe)
            out.update(seconds=out["seconds"] - paused, paused_s=paused, probes=probes)
        elif probed_beside:
            before = probe()
            out = _worker(*worker_args)
            out["probes"] = [before, probe()]
        else:
            out = _worker(*worker_args)
        if disk is not None:
            out["disk_mib"] = _disk_mib(disk)
        if pg is not None:
            out["pg_mib"] = _pg_size_mib(pg)
        steps.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps(out))
        return out

    made = steps / "generate.json"
    if args.resume and made.is_file():
        gen_info = json.loads(made.read_text())
    else:
        start = time.perf_counter()
        gen = generate(work, n, seed=args.seed, questions=args.questions)
        gen_info = {
            "triples": gen.triples,
            "papers": gen.papers,
            "seconds": time.perf_counter() - start,
            "graph": str(gen.graph_file),
            "questions": str(gen.questions_file),
        }
        steps.mkdir(parents=True, exist_ok=True)
        made.write_text(json.dumps(gen_info))
    questions = gen_info["questions"]
    res: dict = {
        "size": n,
        "triples": gen_info["triples"],
        "papers": gen_info["papers"],
        "generate_s": gen_info["seconds"],
        "full": full,
        "stores": {},
    }
    db = work / "kuzu" / "graph.kuzu"
    texts_file = work / "probe-texts.json"

    def probe() -> dict:
        """The machine's embedding speed now (bench/speed_probes.py)."""
        if not texts_file.is_file():
            write_probe_texts(Path(gen_info["graph"]), texts_file)
        return _worker("probe", "--db", str(db), "--texts", str(texts_file))

    _log(args.quiet, f"{n}: loading {gen_info['triples']} triples")
    res["load"] = step("load", "load", "--db", str(db), "--graph", gen_info["graph"], disk=db)
    graph_mib = _graph_mib(res["load"], db, built=(steps / "build-kuzu.json").is_file())
    res["graph_mib"] = graph_mib
    if not full:
        _log(args.quiet, f"{n}: dry-run build (graph phases only)")
        b = step("dry-run", "build", "--db", str(db), "--dry-run")
        t = b["timings"]
        est_embed = b["texts_embedded"] * rates["embed_per_text"]
        est_write = b["texts_embedded"] * rates["write_per_text"]
        est_ann = b["texts_embedded"] * rates["ann_per_text"]
        res["stores"]["kuzu"] = {
            "build": b,
            "estimated": {
                "embed": est_embed,
                "write": est_write,
                "ann_index": est_ann,
                "total": sum(t.get(p, 0.0) for p in ("find_roots", "enumerate_paths", "verbalise"))
                + est_embed
                + est_write
                + est_ann,
                "reference": b["texts_embedded"] * rates["reference_per_text"],
                "from_size": rates["size"],
            },
        }
        return res
    _log(args.quiet, f"{n}: building the Kùzu index")
    b = step("build-kuzu", "build", "--db", str(db), disk=db, probed=True)
    kuzu = {"build": b, "index_mib": None if graph_mib is None else b.get("disk_mib", _disk_mib(db)) - graph_mib}
    _log(args.quiet, f"{n}: embedding model alone on the {b['texts_embedded']} unique texts")
    # a probed build: the machine's speed beside the reference too, to scale the reference to the build's
    ref = step(
        "reference",
        "reference",
        "--db",
        str(db),
        "--sample",
        str(args.reference_sample),
        probed_beside=bool(b.get("probes")),
    )
    kuzu["reference"] = ref
    matched = speed_matched(ref["seconds"], b.get("probes", []), ref.get("probes", []))
    if matched is not None:
        kuzu["reference_matched_s"] = matched
    _queries(kuzu, "kuzu", n, args, step, db, questions)
    res["stores"]["kuzu"] = kuzu
    if dsn:
        if n <= args.pg_full_build_max:
            _log(args.quiet, f"{n}: building the pgvector index")
            pb = step(
                "build-pgvector", "build", "--db", str(db), "--store", "pgvector", "--pg-dsn", dsn, "--rebuild", pg=dsn
            )
            pg = {"build": pb, "mode": "build", "index_mib": pb.get("pg_mib")}
        else:
            _log(args.quiet, f"{n}: copying the index to pgvector (index sync)")
            ps = step("sync-pgvector", "sync", "--db", str(db), "--pg-dsn", dsn, pg=dsn)
            pg = {"sync": ps, "mode": "sync", "index_mib": ps.get("pg_mib")}  # a step kept from before: unknown
        _queries(pg, "pgvector", n, args, step, db, questions, "--store", "pgvector", "--pg-dsn", dsn)
        res["stores"]["pgvector"] = pg
    if args.reference_sample < 1.0:  # the machine's speed drifts over a long run: the same sample again, later
        _log(args.quiet, f"{n}: the model alone again, on the same sample")
        kuzu["reference_again"] = step(
            "reference-again", "reference", "--db", str(db), "--sample", str(args.reference_sample)
        )
    if args.update_changes:  # last: it changes the graph and the Kùzu index the steps above measured
        _log(args.quiet, f"{n}: an incremental update ({args.update_changes} papers gain a keyword, as many lose one)")
        kuzu["update"] = step(
            "update-kuzu",
            "update",
            "--db",
            str(db),
            "--graph",
            gen_info["graph"],
            "--changes",
            str(args.update_changes),
        )
    _rates_from(res, rates)
    return res


def _queries(
    into: dict,
    store: str,
    n: int,
    args: argparse.Namespace,
    step: Callable[..., dict],
    db: Path,
    questions: str,
    *extra: str,
) -> None:
    """Both strategies' latency and quality: through a `kgqa serve` process (--via serve, one request at
    a time over HTTP), or in the measuring process (--via process)."""
    if args.via == "serve":
        _log(args.quiet, f"{n}: direct and traversal questions through kgqa serve ({store})")
        served = step(f"serve-{store}", "serve", "--db", str(db), "--questions", questions, *extra)
        for strategy in ("direct", "traversal"):
            into[strategy] = served[strategy]
        into["service"] = {
            "start_s": served["start_s"],
            "peak_rss_mib": served["service_peak_rss_mib"],
            "exit": served["exit"],
        }
        return
    for strategy in ("direct", "traversal"):
        _log(args.quiet, f"{n}: {strategy} queries ({store})")
        into[strategy] = step(
            f"query-{store}-{strategy}",
            "query",
            "--db",
            str(db),
            "--questions",
            questions,
            "--strategy",
            strategy,
            *extra,
        )
        into[strategy]["via"] = "in the measuring process"


def _requery(n: int, args: argparse.Namespace, res: dict) -> None:
    """The Kùzu query measurements of a kept size again (after a change to the query path)."""
    work = Path(args.work) / f"n{n}"
    _queries(
        res["stores"]["kuzu"],
        "kuzu",
        n,
        args,
        lambda name, *a: _worker(*a),
        work / "kuzu" / "graph.kuzu",
        str(work / "questions.csv"),
    )


def _rates_from(res: dict, rates: dict) -> None:
    """Per-text costs of a fully built size: what the graph-only sizes are extrapolated with."""
    kuzu = res["stores"]["kuzu"]
    t, texts = kuzu["build"]["timings"], max(1, kuzu["build"]["texts_embedded"])
    rates.update(
        size=res["size"],
        embed_per_text=t.get("embed", 0.0) / texts,
        write_per_text=t.get("write", 0.0) / texts,
        ann_per_text=t.get("ann_index", 0.0) / texts,
        reference_per_text=kuzu["reference"]["seconds"] / texts,
    )


def _build_ratio(build_s: float, kuzu: dict) -> str:
    """build / model alone, with the ratio against the later sample of the model beside it where one was
    taken, and against the model alone at the machine's speed during the build where it was probed."""
    text = f"{build_s / kuzu['reference']['seconds']:.2f}"
    again = kuzu.get("reference_again")
    text = f"{text} ({build_s / again['seconds']:.2f} later)" if again else text
    matched = kuzu.get("reference_matched_s")
    return f"{build_s / matched:.2f} at the build's speed; {text} as sampled" if matched else text


def _embedders(results: list[dict]) -> str:
    """The embedders that built and queried the measured indexes ("onnx-fp32"), as recorded by the workers."""
    labels = {
        m[step]["embedder"]
        for r in results
        for m in r["stores"].values()
        for step in ("build", "reference", "direct", "traversal")
        if m.get(step, {}).get("embedder")
    }
    setting = os.environ.get("KGQA_EMBEDDER", "").strip() or "auto"
    return f"{', '.join(sorted(labels)) or 'unrecorded'} (KGQA_EMBEDDER={setting})"


def _fmt_s(v: float | None, est: bool = False) -> str:
    if v is None:
        return "–"
    s = f"{v:.1f}" if v < 100 else f"{v:.0f}"
    return f"{s} (est.)" if est else s


def table(results: list[dict]) -> str:
    """The printed tables (Markdown)."""
    lines = [
        "### Index build (offline: template verbalisation, all-MiniLM-L6-v2 on CPU)",
        "",
        "| triples | store | hubs | paths | unique texts | enumerate s | verbalise s | embed s | write s | ANN s "
        "| build s | model alone s | build / model | peak RSS MiB | index MiB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for store, m in r["stores"].items():
            if store == "kuzu":
                b, t = m["build"], m["build"]["timings"]
                est = m.get("estimated")
                if est:
                    ref = est["reference"]
                    lines.append(
                        f"| {r['triples']:,} | kuzu | {b['hubs']:,} | {b['paths']:,} | {b['texts_embedded']:,} "
                        f"| {_fmt_s(t.get('enumerate_paths'))} | {_fmt_s(t.get('verbalise'))} "
                        f"| {_fmt_s(est['embed'], True)} | {_fmt_s(est['write'], True)} | {_fmt_s(est['ann_index'], True)} "
                        f"| {_fmt_s(est['total'], True)} | {_fmt_s(ref, True)} | {est['total'] / ref:.2f} (est.) "
                        f"| {b['peak_rss_mib']:.0f} (dry run) | – |"
                    )
                    continue
                ref = m["reference"]["seconds"]
                ref_note = (
                    ""
                    if m["reference"]["sampled"] == m["reference"]["texts"]
                    else f" ({m['reference']['sampled'] / m['reference']['texts']:.0%} sample)"
                )
                note = f" ({b['note']})" if b.get("note") else ""  # e.g. a build that needed a second run
                lines.append(
                    f"| {r['triples']:,} | kuzu | {b['hubs']:,} | {b['paths']:,} | {b['texts_embedded']:,} "
                    f"| {_fmt_s(t.get('enumerate_paths'))} | {_fmt_s(t.get('verbalise'))} | {_fmt_s(t.get('embed'))} "
                    f"| {_fmt_s(t.get('write'))} | {_fmt_s(t.get('ann_index'))} | {_fmt_s(b['seconds'])}{note} "
                    f"| {_fmt_s(ref)}{ref_note} | {_build_ratio(b['seconds'], m)} | {b['peak_rss_mib']:.0f} "
                    f"| {_mib(m['index_mib'])} |"
                )
            elif m["mode"] == "build":
                b, t = m["build"], m["build"]["timings"]
                ref = r["stores"]["kuzu"]["reference"]["seconds"]
                lines.append(
                    f"| {r['triples']:,} | pgvector | {b['hubs']:,} | {b['paths']:,} | {b['texts_embedded']:,} "
                    f"| {_fmt_s(t.get('enumerate_paths'))} | {_fmt_s(t.get('verbalise'))} | {_fmt_s(t.get('embed'))} "
                    f"| {_fmt_s(t.get('write'))} | {_fmt_s(t.get('ann_index'))} | {_fmt_s(b['seconds'])} "
                    f"| {_fmt_s(ref)} | {b['seconds'] / ref:.2f} | {b['peak_rss_mib']:.0f} (client) | {_mib(m['index_mib'])} |"
                )
            else:
                k = r["stores"]["kuzu"]["build"]
                kt, s = k["timings"], m["sync"]
                total = (
                    sum(kt.get(p, 0.0) for p in ("find_roots", "enumerate_paths", "verbalise", "embed")) + s["seconds"]
                )
                ref = r["stores"]["kuzu"]["reference"]["seconds"]
                lines.append(
                    f"| {r['triples']:,} | pgvector (sync) | {k['hubs']:,} | {k['paths']:,} | {k['texts_embedded']:,} "
                    f"| {_fmt_s(kt.get('enumerate_paths'))} | {_fmt_s(kt.get('verbalise'))} | {_fmt_s(kt.get('embed'))} "
                    f"| {_fmt_s(s['seconds'])} (write + ANN) | – | {_fmt_s(total, True)} | {_fmt_s(ref)} "
                    f"| {total / ref:.2f} (est.) | {s['peak_rss_mib']:.0f} (client) | {_mib(m['index_mib'])} |"
                )
    lines += [
        "",
        "### Queries (offline, model loaded; latency per question in ms)",
        "",
        "| triples | store | direct p50 | direct p95 | traversal p50 | traversal p95 | direct R | direct Hits@10 "
        "| traversal R | traversal Hits@10 | questions | asked |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for store, m in r["stores"].items():
            if "direct" not in m:
                continue
            d, tr = m["direct"], m["traversal"]
            lines.append(
                f"| {r['triples']:,} | {store} | {d['p50'] * 1000:.0f} | {d['p95'] * 1000:.0f} "
                f"| {tr['p50'] * 1000:.0f} | {tr['p95'] * 1000:.0f} | {d['recall']:.3f} | {d['hits_at_10']:.3f} "
                f"| {tr['recall']:.3f} | {tr['hits_at_10']:.3f} | {d['questions']} "
                f"| {d.get('via', 'in the measuring process')} |"
            )
    updates = [(r, r["stores"]["kuzu"]["update"]) for r in results if "update" in r["stores"].get("kuzu", {})]
    if updates:
        lines += [
            "",
            "### Index update (`kgqa load` + `kgqa triples delete`, then `index update --dirty`; Kùzu)",
            "",
            "| triples | triples added / deleted | hubs marked | hubs rebuilt | texts embedded | edit s | update s "
            "| enumerate s | write s | peak RSS MiB | new keyword answered |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r, u in updates:
            t = u["timings"]
            lines.append(
                f"| {r['triples']:,} | {u['triples_added']} / {u['triples_deleted']} | {u['hubs_marked']} | {u['hubs']} "
                f"| {u['texts_embedded']} | {_fmt_s(u['edit_s'])} | {_fmt_s(u['seconds'])} "
                f"| {_fmt_s(t.get('enumerate_paths'))} | {_fmt_s(t.get('write'))} | {u['peak_rss_mib']:.0f} "
                f"| {'yes' if u['answered_from_changed_hub'] else 'no'} |"
            )
    lines += [
        "",
        "### Graph loading",
        "",
        "| triples | papers | generate s | load s | load peak RSS MiB | graph MiB on disk |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        load_rss = r["load"].get("peak_rss_mib")
        lines.append(
            f"| {r['triples']:,} | {r['papers']:,} | {r['generate_s']:.1f} | {r['load']['seconds']:.1f} "
            f"| {'–' if load_rss is None else f'{load_rss:.0f}'} | {_mib(r['graph_mib'])} |"
        )
    return "\n".join(lines)


def plots(results: list[dict], out: Path) -> list[Path]:
    """SVG charts: build time by phase, query latency, peak RSS, all against graph size."""
    paths = []
    series: dict[str, list[tuple[float, float]]] = {}
    for r in results:
        m = r["stores"]["kuzu"]
        x = r["triples"]
        if "estimated" in m:
            e = m["estimated"]
            series.setdefault("build (est.)", []).append((x, e["total"]))
            series.setdefault("model alone (est.)", []).append((x, e["reference"]))
            for p in ("enumerate_paths", "verbalise"):
                series.setdefault(p, []).append((x, m["build"]["timings"].get(p, 0.0)))
            continue
        series.setdefault("build", []).append((x, m["build"]["seconds"]))
        series.setdefault("model alone", []).append((x, m["reference"]["seconds"]))
        for p in ("enumerate_paths", "verbalise", "write", "ann_index"):
            if p in m["build"]["timings"]:  # a resumed build may lack a phase of its first run
                series.setdefault(p, []).append((x, m["build"]["timings"][p]))
    for est, real in (("build (est.)", "build"), ("model alone (est.)", "model alone")):
        if est in series and real in series:  # join the estimate to the last measured point
            series[est] = [max(series[real])] + series[est]
    paths.append(
        line_chart(
            out / "scale_build.svg",
            "Index build (Kùzu, offline, 2-core CPU)",
            "triples",
            "seconds",
            series,
            frozenset({"build (est.)", "model alone (est.)"}),
        )
    )
    lat: dict[str, list[tuple[float, float]]] = {}
    for r in results:
        for store, m in r["stores"].items():
            for strategy in ("direct", "traversal"):
                if strategy in m:
                    lat.setdefault(f"{store} {strategy} p50", []).append((r["triples"], m[strategy]["p50"] * 1000))
                    lat.setdefault(f"{store} {strategy} p95", []).append((r["triples"], m[strategy]["p95"] * 1000))
    paths.append(line_chart(out / "scale_latency.svg", "Query latency (offline)", "triples", "ms", lat))
    rss: dict[str, list[tuple[float, float]]] = {}
    for r in results:
        m = r["stores"]["kuzu"]
        rss.setdefault("build" if "estimated" not in m else "build (dry run)", []).append(
            (r["triples"], m["build"]["peak_rss_mib"])
        )
        if r["load"].get("peak_rss_mib") is not None:
            rss.setdefault("load", []).append((r["triples"], r["load"]["peak_rss_mib"]))
    paths.append(line_chart(out / "scale_memory.svg", "Peak RSS (Kùzu)", "triples", "MiB", rss))
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1e4,1e5", help="Sizes built in full (comma-separated; 1e4 or 10000).")
    ap.add_argument("--graph-only", default="", help="Sizes measured for graph phases only (e.g. 1e6).")
    ap.add_argument("--stores", default="kuzu,pgvector", help="kuzu, or kuzu,pgvector.")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--questions", type=int, default=100)
    ap.add_argument(
        "--reference-sample",
        type=float,
        default=1.0,
        help="Share of the unique texts the model-alone reference embeds (scaled up).",
    )
    ap.add_argument(
        "--pg-full-build-max",
        type=_size,
        default=10_000,
        help="Largest size whose pgvector index is built from scratch (larger: index sync).",
    )
    ap.add_argument(
        "--probe-every",
        type=float,
        default=300.0,
        help="Seconds between the build's pauses for a probe of the machine's embedding speed (0: none).",
    )
    ap.add_argument("--work", default=".bench-scale", help="Scratch directory (graphs, databases).")
    ap.add_argument("--out", default=str(HERE / "results"), help="Where results JSON, tables and plots go.")
    ap.add_argument(
        "--resume",
        action="store_true",
        help="Keep the sizes already in OUT/scale.json (same seed), measure only the missing ones.",
    )
    ap.add_argument(
        "--requery",
        action="store_true",
        help="With --resume: measure the Kùzu queries of the kept full sizes again, on their databases in --work.",
    )
    ap.add_argument(
        "--remeasure",
        default="",
        help="With --resume: sizes measured again although OUT/scale.json holds them (steps kept in --work are reused).",
    )
    ap.add_argument(
        "--via",
        default="serve",
        choices=("serve", "process"),
        help="Questions through a `kgqa serve` process over HTTP (default), or in the measuring process.",
    )
    ap.add_argument(
        "--update-changes",
        type=int,
        default=100,
        help="Papers that gain a keyword (and as many that lose one) in the update step, after the questions (0: none).",
    )
    ap.add_argument("-q", "--quiet", action="store_true")
    args = ap.parse_args()
    full = sorted(_size(s) for s in args.sizes.split(",") if s.strip())
    graph_only = sorted(_size(s) for s in args.graph_only.split(",") if s.strip())
    if graph_only and not full:
        raise SystemExit("--graph-only extrapolates from a fully built size: give --sizes too")
    stores = {s.strip() for s in args.stores.split(",")}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    Path(args.work).mkdir(parents=True, exist_ok=True)
    dsn = None
    if "pgvector" in stores:
        from kgqa.postgres import server

        dsn = server.start(Path(args.work).resolve() / "pg").dsn
    done: dict[tuple[int, bool], dict] = {}
    if args.resume and (out / "scale.json").is_file():
        previous = json.loads((out / "scale.json").read_text())
        if previous.get("seed") == args.seed:
            again = {_size(x) for x in args.remeasure.split(",") if x.strip()}
            done = {(r["size"], r["full"]): r for r in previous["results"] if r["size"] not in again}
    results, rates = [], {}
    started = time.perf_counter()

    def save() -> dict:
        report = {
            "machine": _machine(),
            "mode": f"offline (template verbaliser, all-MiniLM-L6-v2 on CPU, embedder {_embedders(results)}, no LLM)",
            "embedder_setting": os.environ.get("KGQA_EMBEDDER", "").strip() or "auto",
            "seed": args.seed,
            "wall_s": time.perf_counter() - started,
            "results": sorted(results, key=lambda r: (not r["full"], r["size"])),
        }
        (out / "scale.json").write_text(json.dumps(report, indent=1))  # after every size: resumable
        return report

    try:
        for n, is_full in [(n, True) for n in full] + [(n, False) for n in graph_only]:
            if (n, is_full) in done:
                _log(args.quiet, f"{n}: kept from {out / 'scale.json'}")
                results.append(done[(n, is_full)])
                if is_full and args.requery:
                    _requery(n, args, done[(n, is_full)])
                    save()
                if is_full:
                    _rates_from(done[(n, is_full)], rates)
                continue
            results.append(run_size(n, args, dsn if is_full else None, is_full, rates))
            save()
    finally:
        if dsn:
            from kgqa.postgres import server

            server.stop(Path(args.work).resolve() / "pg")
    report = save()
    results = report["results"]
    text = f"Machine: {report['machine']}. Mode: {report['mode']}. Seed {args.seed}.\n\n{table(results)}\n"
    (out / "scale.md").write_text(text)
    print(text)
    for p in plots(results, out):
        print(f"plot: {p}")


if __name__ == "__main__":
    main()
