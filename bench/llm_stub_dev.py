"""The LLM pipeline on the ORKG dev set against the local Messages API stub: what it sends.

Starts tests/stub_anthropic.py on 127.0.0.1, then runs the real CLI (subprocesses, real SDK) into a
temporary folder: load the ORKG graph, `index build --llm anthropic --dry-run`, the build itself,
`eval --llm anthropic` on the 44 dev questions, then the same eval again and a dry-run rebuild to
show that the response cache answers everything. It prints, from the stub's recorded requests, the
LLM calls and tokens per question and per index build.

Token counts are the stub's: ceil(characters / 4) over the system prompt plus all message texts
(input) and over the reply (output). They measure the size of our prompts, not a real tokenizer, and
the replies come from the stub's rule-based responder, not from a model (answer quality is not
measured here). Usage: .venv/bin/python bench/llm_stub_dev.py [--keep DIR] [--limit N]"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SHARED", ROOT.parent / "shared" / "bench" / "orkg"))
GRAPH, QUESTIONS = SHARED / "graph_gv3.json", SHARED / "questions_dev_gv3.csv"
INDEX_ARGS = ["index", "build", "--hub-type", "Paper", "--start", "R659055", "--llm", "anthropic"]
THESIS_TOKENS_PER_QUESTION = 71_016

sys.path.insert(0, str(ROOT / "tests"))
from stub_anthropic import StubAnthropic  # noqa: E402  (tests/ is importable only after the line above)


def kgqa(env: dict[str, str], *args: str) -> str:
    """Run the CLI; print and return its stdout (fail loudly on errors)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *args], env=env, capture_output=True, text=True, check=False
    )
    if proc.returncode:
        sys.exit(f"kgqa {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    print(f"$ kgqa {' '.join(args)}   [{time.perf_counter() - start:.1f}s]")
    print("  " + proc.stdout.strip().replace("\n", "\n  "))
    return proc.stdout


def question_of(request: dict) -> str | None:
    """The question a query-time request belongs to (its first user message names it)."""
    content = request["body"]["messages"][0]["content"]
    m = re.search(r"^Question: (.*)$", content if isinstance(content, str) else "", re.MULTILINE)
    return m.group(1) if m else None


def stats(values: list[float]) -> str:
    if not values:
        return "n/a"
    return f"mean {statistics.mean(values):,.1f}, median {statistics.median(values):,.1f}, max {max(values):,.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", type=Path, default=None, help="Work in this folder (kept) instead of a temp one.")
    ap.add_argument("--limit", type=int, default=None, help="Only the first N questions.")
    opts = ap.parse_args()
    work = opts.keep or Path(tempfile.mkdtemp(prefix="kgqa-llm-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    limit = ["--limit", str(opts.limit)] if opts.limit else []

    with StubAnthropic() as stub:
        env = dict(
            os.environ,
            KGQA_DB=str(work / "orkg.kuzu"),
            KGQA_LLM_CACHE=str(work / "llm-cache.sqlite"),
            ANTHROPIC_API_KEY="stub-key",
            ANTHROPIC_BASE_URL=stub.url,
            HF_HUB_OFFLINE="1",
        )
        env.pop("KGQA_LLM_TOKEN_BUDGET", None)
        print(f"stub at {stub.url}; work folder {work}\n")
        kgqa(env, "init")
        kgqa(env, "load", str(GRAPH))
        kgqa(env, *INDEX_ARGS, "--dry-run")
        assert not stub.requests, "the dry run sent requests"
        kgqa(env, *INDEX_ARGS)
        build = list(stub.requests)
        stub.reset()
        kgqa(env, "eval", str(QUESTIONS), "--out", str(work / "dev-1.jsonl"), "--llm", "anthropic", *limit)
        asked = list(stub.requests)
        stub.reset()
        kgqa(env, "eval", str(QUESTIONS), "--out", str(work / "dev-2.jsonl"), "--llm", "anthropic", *limit)
        kgqa(env, *INDEX_ARGS, "--dry-run", "--rebuild")
        again = list(stub.requests)

    print("\n== index build (LLM path verbalisation) ==")
    paths_per_call = [len(r["body"]["messages"][0]["content"].splitlines()) - 1 for r in build]
    print(f"calls: {len(build)}; paths per call: {stats(paths_per_call)}")
    print(
        f"prompt tokens: {sum(r['input_tokens'] for r in build):,} ({stats([r['input_tokens'] for r in build])} "
        f"per call); output tokens: {sum(r['output_tokens'] for r in build):,}"
    )

    print("\n== eval on the dev set (query time) ==")
    per_q: dict[str, list[dict]] = defaultdict(list)
    for r in asked:
        per_q[question_of(r) or "?"].append(r)
    records = [json.loads(line) for line in (work / "dev-1.jsonl").read_text(encoding="utf-8").splitlines()]
    for rec in records:
        per_q.setdefault(rec["question"], [])
    calls = [len(rs) for rs in per_q.values()]
    prompt = [sum(r["input_tokens"] for r in rs) for rs in per_q.values()]
    output = [sum(r["output_tokens"] for r in rs) for rs in per_q.values()]
    print(f"questions: {len(per_q)} ({sum(1 for r in records if r.get('error'))} failed)")
    print(f"LLM calls per question: {stats(calls)}")
    print(f"prompt tokens per question: {stats(prompt)}")
    print(f"output tokens per question: {stats(output)}")
    total = [p + o for p, o in zip(prompt, output)]
    print(
        f"total tokens per question: {stats(total)}; thesis: {THESIS_TOKENS_PER_QUESTION:,} "
        f"(ours = {statistics.mean(total) / THESIS_TOKENS_PER_QUESTION:.1%} of it)"
    )
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in asked:
        by_kind[r["kind"]].append(r)
    for kind, rs in sorted(by_kind.items()):
        print(
            f"  {kind:15s} {len(rs) / len(per_q):5.2f} calls/question, {stats([r['input_tokens'] for r in rs])} "
            "prompt tokens per call"
        )
    recorded = sum(rec.get("llm_tokens", 0) for rec in records)
    print(f"tokens in the run file: {recorded:,}; counted by the stub: {sum(total):,}")

    print("\n== second eval and a dry-run rebuild (response cache) ==")
    again_records = [json.loads(line) for line in (work / "dev-2.jsonl").read_text(encoding="utf-8").splitlines()]
    print(f"requests sent: {len(again)}; cache hits recorded: {sum(r.get('llm_cache_hits', 0) for r in again_records)}")


if __name__ == "__main__":
    main()
