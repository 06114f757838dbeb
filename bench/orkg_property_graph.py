"""The ORKG benchmark as a typed property graph, against the same graph as HubLink triples.

    python bench/orkg_property_graph.py [--graph ../shared/bench/orkg/graph_gv3.json] [--out runs/pg]

1. Writes the shared graph file as a Kùzu property graph with plain Cypher: one node table per
   knowledge type (a resource's first type, `Paper` first), `Resource` for untyped resources,
   `Literal` for the `L…` literals, each `(id STRING PRIMARY KEY, label STRING)`; one rel table per
   predicate with every FROM/TO pair it joins (multi-pair), filled with UNWIND … CREATE. A mapping
   file (kgqa.toml) gives each rel table the predicate's ORKG name, marks `Literal` as literal values
   and reads nothing backwards (ORKG's edges already point away from the papers). Other formats (the
   demo CSV) are read with kgqa's loaders; `convert(..., literals="properties")` writes literals as
   typed properties of their subjects instead (tests/integration/test_layouts_agree.py).
2. Loads the same file the usual way (`kgqa init` + `kgqa load`) into a second database.
3. Builds both indexes (`--hub-type Paper --start R659055`, as bench/orkg_dev.sh), runs `kgqa eval` on
   the dev questions against each and prints one table (offline mode, 0 LLM tokens).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "bench" / "orkg"


def table_of(uid: str, types: list[str]) -> str:
    """The node table of an ORKG entity."""
    if uid.startswith("L"):
        return "Literal"
    if "Paper" in types:
        return "Paper"
    return re.sub(r"\W+", "_", types[0]) if types else "Resource"


def rel_name(predicate: str) -> str:
    """A rel table name for an ORKG predicate (its readable name goes in the mapping file)."""
    return "P_" + (re.sub(r"\W+", "_", predicate).strip("_") or "x")


def read_graph(graph_file: Path) -> tuple[dict[str, tuple[str, str, bool]], list[tuple[str, str, str]]]:
    """uid -> (node table, label, is literal) and the distinct (subject, predicate, object) triples of a
    graph file: the ORKG JSON file as is, any other format (CSV, N-Triples, ...) through kgqa's loaders."""
    entities: dict[str, tuple[str, str, bool]] = {}
    triples = []
    if graph_file.suffix == ".json":
        for r in json.loads(graph_file.read_text(encoding="utf-8")):
            ends = (r["entity_subject"], r["entity_object"]) if "predicate" in r else (r,)
            for e in ends:
                uid = e["uid"]
                entities.setdefault(uid, (table_of(uid, e["knowledge_types"]), e["text"], uid.startswith("L")))
            if "predicate" in r:
                triples.append((r["entity_subject"]["uid"], r["predicate"], r["entity_object"]["uid"]))
        return entities, list(dict.fromkeys(triples))
    from kgqa.graph.loaders import detect_format, get_loader
    from kgqa.graph.loaders.base import EntityRecord, TripleRecord

    def add(e: EntityRecord) -> None:
        table = "Literal" if e.is_literal else table_of(e.id, list(e.types or ()))
        entities.setdefault(e.id, (table, e.label or "", e.is_literal))

    for rec in get_loader(detect_format(graph_file)).records(graph_file):
        if isinstance(rec, TripleRecord):
            add(rec.subject)
            add(rec.object)
            triples.append((rec.subject.id, rec.predicate, rec.object.id))
        else:
            add(rec.entity)
    return entities, list(dict.fromkeys(triples))


def column_name(predicate: str) -> str:
    """A property name for a literal predicate (its readable name goes in the mapping file)."""
    name = re.sub(r"\W+", "_", predicate).strip("_") or "x"
    return f"{name}_value" if name in ("id", "label") else name


def convert(graph_file: Path, db_path: Path, mapping_path: Path, literals: str = "table") -> dict[str, int]:
    """Write the graph as node and rel tables with Cypher DDL and CREATE; the mapping file beside it.
    `literals`: "table" (a `Literal` node table, ORKG's literals keep their ids) or "properties" (each
    literal predicate a property of its subject's table: INT64 where every value is an integer, a
    STRING[] where a subject has several values, else STRING)."""
    import kuzu

    entities, triples = read_graph(graph_file)
    as_props = literals == "properties"
    props: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))  # (table, pred)
    if as_props:
        for s, p, o in triples:
            if entities[o][2]:
                props[(entities[s][0], p)][s].append(entities[o][1])
        triples = [t for t in triples if not entities[t[2]][2]]
        entities = {u: e for u, e in entities.items() if not e[2]}
    columns: dict[str, list[tuple[str, str, str]]] = defaultdict(list)  # table -> (column, type, predicate)
    for (table, pred), values in sorted(props.items()):
        many = any(len(v) > 1 for v in values.values())
        ints = all(re.fullmatch(r"-?(0|[1-9]\d{0,17})", x) for v in values.values() for x in v)
        kind = "STRING[]" if many else "INT64" if ints else "STRING"
        columns[table].append((column_name(pred), kind, pred))
    by_table: dict[str, list[dict[str, object]]] = defaultdict(list)
    for uid, (table, label, _) in entities.items():
        row: dict[str, object] = {"id": uid, "label": label}
        for col, kind, pred in columns.get(table, []):
            vals = props[(table, pred)].get(uid)
            row[col] = (
                None if not vals else vals if kind == "STRING[]" else int(vals[0]) if kind == "INT64" else vals[0]
            )
        by_table[table].append(row)
    pairs: dict[str, set[tuple[str, str]]] = defaultdict(set)
    edges: dict[tuple[str, str, str], list[dict[str, str]]] = defaultdict(list)
    names: dict[str, str] = {}
    for s, p, o in triples:
        rel = rel_name(p)
        if names.setdefault(rel, p) != p:
            raise SystemExit(f"two predicates share the rel table name {rel}: {names[rel]!r}, {p!r}")
        a, b = entities[s][0], entities[o][0]
        pairs[rel].add((a, b))
        edges[(rel, a, b)].append({"s": s, "o": o})
    if db_path.exists():
        shutil.rmtree(db_path) if db_path.is_dir() else db_path.unlink()
    db = kuzu.Database(str(db_path))
    conn = kuzu.Connection(db)
    for table, rows in sorted(by_table.items()):
        cols = "".join(f", `{c}` {kind}" for c, kind, _ in columns.get(table, []))
        conn.execute(f"CREATE NODE TABLE `{table}`(id STRING PRIMARY KEY, label STRING{cols})")
        sets = "".join(f", `{c}`: r.`{c}`" for c, _, _ in columns.get(table, []))
        conn.execute(f"UNWIND $rows AS r CREATE (:`{table}` {{id: r.id, label: r.label{sets}}})", {"rows": rows})
    for rel, ends in sorted(pairs.items()):
        joined = ", ".join(f"FROM `{a}` TO `{b}`" for a, b in sorted(ends))
        conn.execute(f"CREATE REL TABLE `{rel}`({joined})")
    for (rel, a, b), rows in sorted(edges.items()):
        conn.execute(
            f"UNWIND $rows AS r MATCH (s:`{a}` {{id: r.s}}), (o:`{b}` {{id: r.o}}) CREATE (s)-[:`{rel}`]->(o)",
            {"rows": rows},
        )
    conn.close()
    db.close()
    lines = ["# The graph as node and rel tables: predicate names as in the graph file."]
    lines += ["inverse_into = []", ""]
    if not as_props:
        lines += ["[tables.Literal]", "literal = true", ""]
    for table, cols in sorted(columns.items()):
        lines += [f"[tables.{table}.predicates]"] + [f"{c} = {json.dumps(p)}" for c, _, p in cols] + [""]
    for rel, p in sorted(names.items()):
        lines += [f"[rels.{rel}]", f"predicate = {json.dumps(p)}", ""]
    mapping_path.write_text("\n".join(lines), encoding="utf-8")
    return {"node_tables": len(by_table), "rel_tables": len(pairs), "entities": len(entities), "triples": len(triples)}


def kgqa(db: Path, *args: str) -> str:
    """Run one kgqa command on `db` (offline); its stdout."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "kgqa_cli", "-q", "--db", str(db), *args]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--graph", type=Path, default=SHARED / "graph_gv3.json")
    parser.add_argument("--questions", type=Path, default=SHARED / "questions_dev_gv3.csv")
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "pg")
    parser.add_argument(
        "--reuse-triples", action="store_true", help="Keep the triple database and its run from an earlier run."
    )
    args = parser.parse_args()
    from kgqa.evaluation.dataset import read_questions
    from kgqa.evaluation.report import evaluate
    from kgqa.evaluation.runner import read_run

    args.out.mkdir(parents=True, exist_ok=True)
    pg_db, triple_db, mapping = args.out / "orkg-pg.kuzu", args.out / "orkg-triples.kuzu", args.out / "kgqa.toml"
    start = time.perf_counter()
    shape = convert(args.graph, pg_db, mapping)
    print(f"property graph: {shape} written with Cypher in {time.perf_counter() - start:.1f}s", file=sys.stderr)
    if not args.reuse_triples:
        if triple_db.exists():
            shutil.rmtree(triple_db) if triple_db.is_dir() else triple_db.unlink()
        kgqa(triple_db, "init")
        kgqa(triple_db, "load", str(args.graph))
    build = ["index", "build", "--hub-type", "Paper", "--start", "R659055"]
    results = {}
    for name, db, extra in (
        ("triples (kgqa load)", triple_db, []),
        ("property graph (in place)", pg_db, ["--mapping", str(mapping)]),
    ):
        run = args.out / f"{db.stem}-dev.jsonl"
        started = time.perf_counter()
        if args.reuse_triples and db == triple_db:
            built = kgqa(db, "index", "status")
        else:
            built = kgqa(db, *build, *extra)
            run.unlink(missing_ok=True)
        build_s = time.perf_counter() - started
        kgqa(db, "eval", "run", str(args.questions), "--out", str(run))
        ev = evaluate(read_run(run), read_questions(str(args.questions)))
        results[name] = (ev.overall, build_s, built.strip().splitlines()[-1])
    cols = ["recall", "precision", "f1", "hits_at_10", "map_at_10", "mrr_at_10", "em_at_10", "runtime_s"]
    print("| layout | R | P | F1 | Hits@10 | MAP@10 | MRR@10 | EM@10 | s/question | index build s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, (m, build_s, _) in results.items():
        cells = " | ".join(f"{m[c]:.3f}" if c != "runtime_s" else f"{m[c]:.2f}" for c in cols)
        print(f"| {name} | {cells} | {build_s:.0f} |")
    for name, (_, _, line) in results.items():
        print(f"{name}: {line}", file=sys.stderr)


if __name__ == "__main__":
    main()
