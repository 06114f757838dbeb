"""The films benchmark as a data engineer's own Kùzu property graph, asked in user wordings.

    kgqa bench generate --domain films --triples 4000 --questions 200 --seed 1 --out films
    python bench/films_property_graph.py films/graph.csv --out runs/films-pg.kuzu [--lower]

1. Writes the generated graph with plain Cypher as people usually model films: `Movie(title STRING
   PRIMARY KEY, releaseYear INT64, language STRING)`, `Person(name …)`, `Genre(name …)`, `Tag(name …)`,
   the primary key being the name (no label property), and the people's edges pointing at the films
   (`(Person)-[:DIRECTED|ACTED_IN|WROTE]->(Movie)`), so that HubLink reads them backwards into the hub.
2. Builds the index in place (`kgqa index build --hub-type Movie`: nothing loaded, nothing copied).
3. Asks the user-worded questions of bench/metaqa_style_questions.py (answers computed from the CSV, not
   by the answering code; `--lower` writes every name lower case) and prints recall and precision per
   question form (offline mode, direct strategy, no topic given).
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import kuzu

sys.path.insert(0, str(Path(__file__).resolve().parent))
import metaqa_style_questions as metaqa

DDL = [
    "CREATE NODE TABLE Movie(title STRING PRIMARY KEY, releaseYear INT64, language STRING)",
    "CREATE NODE TABLE Person(name STRING PRIMARY KEY)",
    "CREATE NODE TABLE Genre(name STRING PRIMARY KEY)",
    "CREATE NODE TABLE Tag(name STRING PRIMARY KEY)",
    "CREATE REL TABLE DIRECTED(FROM Person TO Movie)",
    "CREATE REL TABLE ACTED_IN(FROM Person TO Movie)",
    "CREATE REL TABLE WROTE(FROM Person TO Movie)",
    "CREATE REL TABLE HAS_GENRE(FROM Movie TO Genre)",
    "CREATE REL TABLE HAS_TAG(FROM Movie TO Tag)",
]
#: generator predicate -> (node table of the other end, rel table, whether the edge points at the movie)
EDGES = {
    "director": ("Person", "DIRECTED", True),
    "cast member": ("Person", "ACTED_IN", True),
    "screenwriter": ("Person", "WROTE", True),
    "genre": ("Genre", "HAS_GENRE", False),
    "keyword": ("Tag", "HAS_TAG", False),
}


def write_property_graph(graph_csv: str, out: Path) -> int:
    """The generated graph as node and rel tables at `out` (replaced); the number of movies."""
    if out.exists():
        shutil.rmtree(out) if out.is_dir() else out.unlink()
    rows = list(csv.DictReader(open(graph_csv, encoding="utf-8", newline="")))
    title = {r["subject"]: r["subject_label"] for r in rows}
    if len(set(title.values())) != len(title):
        raise SystemExit(f"{graph_csv}: two movies share a title; titles are the primary key here")
    year = {r["subject"]: int(r["object"]) for r in rows if r["predicate"] == "release year"}
    lang = {r["subject"]: r["object_label"] or r["object"] for r in rows if r["predicate"] == "original language"}
    conn = kuzu.Connection(kuzu.Database(str(out)))
    for statement in DDL:
        conn.execute(statement)
    for m, t in title.items():
        conn.execute(
            "CREATE (:Movie {title: $t, releaseYear: $y, language: $l})", {"t": t, "y": year.get(m), "l": lang.get(m)}
        )
    made: set[tuple[str, str]] = set()
    for r in rows:
        edge = EDGES.get(r["predicate"])
        if edge is None:
            continue
        table, rel, into_movie = edge
        name = r["object_label"] or r["object"]
        if (table, name) not in made:
            conn.execute(f"MERGE (:{table} {{name: $n}})", {"n": name})
            made.add((table, name))
        ends = "(a)-[:{rel}]->(m)" if into_movie else "(m)-[:{rel}]->(a)"
        conn.execute(
            f"MATCH (a:{table} {{name: $n}}), (m:Movie {{title: $t}}) CREATE {ends.format(rel=rel)}",
            {"n": name, "t": title[r["subject"]]},
        )
    return len(title)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graph_csv", help="graph.csv of `kgqa bench generate --domain films`")
    ap.add_argument("--out", default="runs/films-pg.kuzu", help="the property graph database to write")
    ap.add_argument("--lower", action="store_true", help="names written lower case in the questions")
    args = ap.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    movies = write_property_graph(args.graph_csv, out)
    print(f"wrote {out}: {movies} movies as a property graph (names as keys, no label property)", flush=True)
    env = {**os.environ, "HF_HUB_OFFLINE": os.environ.get("HF_HUB_OFFLINE", "1")}
    kgqa = [sys.executable, "-m", "kgqa_cli", "-q", "--db", str(out)]
    subprocess.run([*kgqa, "index", "build", "--hub-type", "Movie"], check=True, env=env)
    renamed = metaqa.rename(args.graph_csv)  # the question forms read the MetaQA-style predicate names
    return metaqa.main(str(out), renamed, args.lower)


if __name__ == "__main__":
    sys.exit(main())
