"""The `kgqa` command as a user runs it: subprocesses, exit codes, stdout/stderr, README coverage."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ORKG = ROOT.parent / "shared" / "bench" / "orkg" / "graph_gv3.json"


def kgqa(*args: str, db: Path, check: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ, KGQA_DB=str(db), HF_HUB_OFFLINE="1")
    proc = subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *args], capture_output=True, text=True, env=env, timeout=900
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"kgqa {' '.join(args)} exited {proc.returncode}: {proc.stderr}")
    return proc


def test_cli_workflow_and_errors(tmp_path):
    db = tmp_path / "cli.kuzu"
    assert "initialised" in kgqa("init", db=db).stdout
    csv = tmp_path / "g.csv"
    csv.write_text(
        "subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal\n"
        "P1,venue,V1,Graph QA at Scale,Paper,ICSA,Venue,false\n"
        "P1,publication year,2019,Graph QA at Scale,Paper,,,true\n"
        "P2,venue,V1,Hubs for Retrieval,Paper,ICSA,Venue,false\n",
        encoding="utf-8",
    )
    out = kgqa("load", str(csv), db=db).stdout
    assert "+3 triples" in out
    assert "+0 triples" in kgqa("load", str(csv), db=db).stdout
    missing = kgqa("ask", "What?", db=db, check=False)
    assert missing.returncode == 5 and "index build" in missing.stderr
    built = kgqa("index", "build", "--hub-type", "Paper", db=db).stdout
    assert "rebuilt 2 of 2 hubs" in built
    assert "nothing rebuilt" in kgqa("index", "build", "--hub-type", "Paper", db=db).stdout
    status = json.loads(kgqa("index", "status", "--json", db=db).stdout)
    assert status["hubs"] == 2 and status["vectors"] > 0 and status["embedding_model"] == "all-MiniLM-L6-v2"
    answer = json.loads(
        kgqa("ask", "Which papers were published in 2019?", "--topic-entity", "ICSA", "--json", db=db).stdout
    )
    assert "(P1:Graph QA at Scale, publication year, 2019)" in answer["triples"]
    assert answer["sources"][0]["hub_id"] == "P1" and answer["llm_tokens"]["total_tokens"] == 0
    bad = tmp_path / "bad.tsv"
    bad.write_text("a\tb\n", encoding="utf-8")
    err = kgqa("load", str(bad), db=db, check=False)
    assert err.returncode == 3 and "bad.tsv" in err.stderr and "line 1" in err.stderr
    unknown = kgqa("ask", "x?", "--topic-entity", "NOPE", db=db, check=False)
    assert unknown.returncode == 6 and "NOPE" in unknown.stderr
    empty = kgqa("ask", "   ", db=db, check=False)
    assert empty.returncode == 3 and "empty" in empty.stderr
    s = kgqa("stats", db=db).stdout
    assert "triples: 3" in s


def test_every_command_is_in_the_readme():
    import click
    from kgqa_cli.main import cli

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    names = []
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        cmd = cli.get_command(ctx, name)
        names += [f"{name} {sub}" for sub in getattr(cmd, "commands", {})] or [name]
    for n in names:
        assert re.search(rf"kgqa (--\S+ \S+ )*{n}\b", readme), f"`kgqa {n}` is not documented in README.md"


@pytest.mark.slow
@pytest.mark.skipif(not ORKG.exists(), reason="shared ORKG benchmark graph not present")
def test_orkg_graph_index_and_icsa_question(tmp_path):
    db = tmp_path / "orkg.kuzu"
    kgqa("load", str(ORKG), db=db)
    built = kgqa("index", "build", "--hub-type", "Paper", "--start", "R659055", db=db).stdout
    assert "rebuilt 153 of 153 hubs" in built
    status = json.loads(kgqa("index", "status", "--json", db=db).stdout)
    assert status["hubs"] == 153 and status["paths"] > 3000 and status["vectors"] > 20000
    answer = json.loads(
        kgqa("ask", "Which papers were published at ICSA in 2019?", "--topic-entity", "R659055", "--json", db=db).stdout
    )
    records = json.loads(ORKG.read_text(encoding="utf-8"))
    facts = {
        (r["entity_subject"]["uid"], r["predicate"], r["entity_object"]["uid"], r["entity_object"]["text"])
        for r in records
        if "entity_subject" in r
    }
    icsa = {s for s, p, o, _ in facts if p == "venue" and o == "R820814"}
    y2019 = {s for s, p, _, text in facts if p == "publication year" and text == "2019"}
    expected = icsa & y2019
    assert len(expected) == 21
    cited = [s["hub_id"] for s in answer["sources"]]
    assert set(cited[:21]) == expected  # every ICSA 2019 paper, ranked before any other hub
    assert any(t.startswith(f"({pid}:") and t.endswith(":2019)") for pid in expected for t in answer["triples"])
    again = kgqa("index", "build", "--hub-type", "Paper", "--start", "R659055", db=db).stdout
    assert "nothing rebuilt" in again

    # the update scenario (as in bench/update_demo.sh): change triples of two papers, rebuild exactly those
    paper_a, year_a, object_b = "R868212", "L1519594", "R868287"  # R868287 is a research object of R868251
    kgqa("triples", "delete", "-s", paper_a, "-p", "publication year", "-o", year_a, db=db)
    kgqa("triples", "add", "-s", paper_a, "-p", "publication year", "-o", "2018", "--literal", db=db)
    kgqa("triples", "add", "-s", object_b, "-p", "Evaluation method", "-o", "Controlled Experiment", "--literal", db=db)
    report = json.loads(kgqa("index", "update", "--dirty", "--json", db=db).stdout)
    assert sorted(report["rebuilt_ids"]) == ["R868212", "R868251"] and report["hubs_removed"] == 0
    assert report["vectors_written"] > 0 and report["vectors_deleted"] > 0
    assert "nothing rebuilt" in kgqa("index", "update", db=db).stdout
    title = "Accurate Analysis of Quality Properties of Software with Observation-Based Markov Chain Refinement"
    year = json.loads(
        kgqa("ask", f"In which year was '{title}' published?", "--topic-entity", paper_a, "--json", db=db).stdout
    )
    assert any(
        t.startswith(f"({paper_a}:") and "publication year" in t and t.endswith(":2018)") or t.endswith(", 2018)")
        for t in year["triples"]
    ), year["triples"]


def test_demo_then_eval_and_report(tmp_path):
    from kgqa.demo import demo_questions_path

    db = tmp_path / "demo.kuzu"
    out = kgqa("demo", "--db", str(db), db=db).stdout
    assert "index build" in out and "[1]" in out and "Sources:" in out
    run = tmp_path / "run.jsonl"
    qs = str(demo_questions_path())
    first = kgqa("eval", qs, "--out", str(run), "--limit", "4", db=db).stdout
    assert "4 answered" in first and "offline mode" in first
    second = kgqa("eval", "run", qs, "--out", str(run), db=db).stdout
    assert "8 answered" in second and "4 already done" in second
    report = kgqa("eval", "report", str(run), qs, db=db).stdout
    assert "thesis HubLink (T)" in report and "by retrieval_operation" in report
    assert (tmp_path / "run.html").exists() and (tmp_path / "run.scores.jsonl").exists()
    sql = kgqa("eval", "report", str(run), qs, "--sql", "SELECT count(*) AS n FROM scores", db=db).stdout
    assert sql.splitlines() == ["n", "12"]
    # the group's --db places the demo; $KGQA_DB (a user's graph, here `db`'s sibling) is never used by it
    grouped, user = tmp_path / "grouped.kuzu", tmp_path / "user.kuzu"
    assert "Sources:" in kgqa("--db", str(grouped), "demo", db=user).stdout
    assert grouped.exists() and not user.exists()


def test_bench_generate_and_the_scale_benchmark_at_a_small_size(tmp_path):
    out = kgqa(
        "bench",
        "generate",
        "--triples",
        "2e3",
        "--seed",
        "3",
        "--out",
        str(tmp_path / "g"),
        db=tmp_path / "unused.kuzu",
    ).stdout
    assert re.search(r"wrote .*graph\.csv: 20\d\d triples, \d+ papers", out)
    assert (tmp_path / "g" / "questions.csv").read_text(encoding="utf-8").count("\n") == 101
    bad = kgqa("bench", "generate", "--triples", "12", db=tmp_path / "unused.kuzu", check=False)
    assert bad.returncode == 2 and "--triples must be between" in bad.stderr
    # the documented benchmark, end to end at a small size (Kùzu only): a full size and a graph-only one
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "scale.py"),
            "--sizes",
            "600",
            "--graph-only",
            "1200",
            "--stores",
            "kuzu",
            "--questions",
            "14",
            "--update-changes",
            "4",
            "--work",
            str(tmp_path / "w"),
            "--out",
            str(tmp_path / "out"),
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        env=dict(os.environ, HF_HUB_OFFLINE="1"),
    )
    assert proc.returncode == 0, proc.stderr
    assert "| build / model |" in proc.stdout and "(est.)" in proc.stdout
    result = json.loads((tmp_path / "out" / "scale.json").read_text())
    full, graph_only = result["results"]
    kuzu = full["stores"]["kuzu"]
    assert kuzu["build"]["texts_embedded"] > 0 and kuzu["reference"]["texts"] == kuzu["build"]["texts_embedded"]
    assert set(kuzu["build"]["timings"]) >= {"enumerate_paths", "verbalise", "embed", "write", "ann_index"}
    assert kuzu["direct"]["questions"] == 14 and kuzu["direct"]["recall"] >= 0.8
    assert kuzu["traversal"]["hits_at_10"] >= 0.8
    update = kuzu["update"]  # 4 papers gain a keyword and 4 lose one: exactly those 8 hubs are rebuilt
    assert update["triples_added"] == update["triples_deleted"] == 4 and update["hubs"] == update["hubs_marked"] == 8
    assert update["answered_from_changed_hub"] and "### Index update" in proc.stdout
    assert graph_only["stores"]["kuzu"]["build"]["dry_run"] and graph_only["stores"]["kuzu"]["estimated"]["embed"] > 0
    for name in ("scale_build.svg", "scale_latency.svg", "scale_memory.svg"):
        assert (tmp_path / "out" / name).read_text().startswith("<svg")


def test_film_domain_gzip_load_and_eval_beside_a_reader(tmp_path):
    import gzip

    from kgqa.api import Workspace
    from kgqa.config import Settings

    unused = tmp_path / "unused.kuzu"
    out = kgqa(
        "bench",
        "generate",
        "--domain",
        "films",
        "--triples",
        "300",
        "--questions",
        "16",
        "--out",
        str(tmp_path / "f"),
        db=unused,
    ).stdout
    assert re.search(r"wrote .*graph\.csv: 3\d\d triples, \d+ movies", out)
    packed = tmp_path / "graph.csv.gz"
    packed.write_bytes(gzip.compress((tmp_path / "f" / "graph.csv").read_bytes()))
    db = tmp_path / "films.kuzu"
    kgqa("init", db=db)
    assert "+3" in kgqa("load", str(packed), db=db).stdout
    kgqa("index", "build", "--hub-type", "Movie", db=db)
    reader = Workspace(Settings(db_path=db), read_only=True)  # another reader holds the database
    try:
        run = tmp_path / "run.jsonl"
        qs = str(tmp_path / "f" / "questions.csv")
        assert "16 answered" in kgqa("eval", qs, "--out", str(run), db=db).stdout
    finally:
        reader.close()
    report = kgqa("eval", "report", str(run), qs, "--no-text", db=db).stdout
    assert "Hits@1" in report and "by hops:" in report and "by form:" in report
    line = next(x for x in report.splitlines() if x.startswith("all "))
    assert float(line.split()[2]) >= 0.9  # Hits@1 over the 16 questions
