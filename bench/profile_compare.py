"""Warm-path profile of an earlier commit against the working tree, alternating runs on one machine.

Extracts `--before` (a git revision) into a temporary folder, then runs bench/profile_ask.py
`--rounds` times for each side, alternating (before, after, before, after, ...), each in its own
process against the same read-only database. Prints the median over rounds of every phase's mean,
p50 and p95, and checks that every run's answers digest (each dev question's triples and cited
hubs, in order) is the same on both sides.

    python bench/profile_compare.py --db /tmp/perf/orkg.kuzu --before ce7938f [--rounds 3] \\
        [--out bench/results/profile_compare.md]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tables import emit

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT.parent / "shared" / "bench" / "orkg" / "questions_dev_gv3.csv"
ROW = re.compile(r"^\| (\*\*question \(wall\)\*\*|[a-z][a-z ]+) \| ([\d.]+) \| [\d]+ % \| ([\d.]+) \| ([\d.]+) \|$")
DIGEST = re.compile(r"answers digest `([0-9a-f]+)`")
EMBEDDER = re.compile(r"embedder (\S+)")


def run_profile(
    tree: Path, db: str, questions: str, passes: int
) -> tuple[dict[str, tuple[float, float, float]], str, str]:
    """One profile_ask.py run of the code in `tree`: phase -> (mean, p50, p95) ms, digest, embedder."""
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1")
    done = subprocess.run(
        [
            sys.executable,
            str(tree / "bench" / "profile_ask.py"),
            "--db",
            db,
            "--questions",
            questions,
            "--passes",
            str(passes),
        ],
        env=env,
        cwd=tree / "bench",
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"profile_ask.py in {tree} failed:\n{done.stderr[-3000:]}")
    phases = {
        m[1].strip("*"): (float(m[2]), float(m[3]), float(m[4])) for m in map(ROW.match, done.stdout.splitlines()) if m
    }
    return phases, DIGEST.search(done.stdout)[1], EMBEDDER.search(done.stdout)[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True, help="an indexed database (opened read-only)")
    ap.add_argument("--before", required=True, help="git revision to compare the working tree with")
    ap.add_argument("--questions", default=str(QUESTIONS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--passes", type=int, default=1, help="passes over the dev questions per run")
    ap.add_argument("--out", default=None, help="also write the table (markdown) here")
    args = ap.parse_args()

    runs: dict[str, list] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory(prefix="kgqa-before-") as tmp:
        before = Path(tmp)
        archive = subprocess.run(
            ["git", "archive", args.before, "kgqa", "bench"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
        for r in range(args.rounds):
            for side, tree in (("before", before), ("after", ROOT)):
                runs[side].append(run_profile(tree, args.db, args.questions, args.passes))
                wall = runs[side][-1][0]["question (wall)"]
                print(f"round {r + 1}/{args.rounds} {side}: wall p50 {wall[1]:.1f} ms", file=sys.stderr)

    phases = list(runs["after"][0][0])
    digests = {side: {d for _, d, _ in rs} for side, rs in runs.items()}
    embedders = sorted({e for rs in runs.values() for _, _, e in rs})
    same = len(digests["before"] | digests["after"]) == 1
    lines = [
        f"Warm `ask`, traversal, offline mode, ORKG dev questions; `{args.before}` (before) against this "
        f"tree (after), {args.rounds} alternating runs each, {args.passes} pass(es) per run; embedder "
        f"{', '.join(embedders)}; {os.cpu_count()} cores, shared machine (other work running). "
        "Medians over runs of each run's mean, p50 and p95 (ms/question).",
        "",
        "| phase | before mean | after mean | before p50 | after p50 | before p95 | after p95 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for p in phases:
        med = {side: [statistics.median(run[0][p][k] for run in runs[side]) for k in range(3)] for side in runs}
        name = f"**{p}**" if p == "question (wall)" else p
        lines.append(
            f"| {name} | {med['before'][0]:.1f} | {med['after'][0]:.1f} | {med['before'][1]:.1f} | "
            f"{med['after'][1]:.1f} | {med['before'][2]:.1f} | {med['after'][2]:.1f} |"
        )
    lines += [
        "",
        f"Answers digest check (every question's triples and cited hubs, in order, every run): "
        f"{'identical' if same else 'DIFFERENT'} (before {sorted(digests['before'])}, "
        f"after {sorted(digests['after'])})",
    ]
    emit(lines, args.out)
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
