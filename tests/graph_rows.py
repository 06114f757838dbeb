"""A graph given as rows of `kgqa load`'s CSV, written, loaded and indexed in a new workspace (for test
fixtures that reshape a generated graph: people as subjects, machine-style predicate names)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import kuzu

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.embeddings.base import Embedder
from kgqa.synthetic.films import generate_films

#: The film generator's predicates as MetaQA's knowledge base names them.
METAQA_NAMES = {
    "director": "directed_by",
    "screenwriter": "written_by",
    "cast member": "starred_actors",
    "genre": "has_genre",
    "original language": "in_language",
    "release year": "release_year",
    "keyword": "has_tags",
}


def film_rows(root: Path, triples: int, seed: int) -> list[dict[str, str]]:
    """The rows of a generated film graph (`kgqa bench generate --domain films`) written under ROOT/films."""
    gen = generate_films(root / "films", triples, seed=seed, questions=0)
    with gen.graph_file.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def indexed_tsv(root: Path, name: str, text: str, embedder: Embedder, params: IndexParams) -> Workspace:
    """`text` (a headerless TSV of names) written to ROOT/NAME.tsv, loaded into ROOT/NAME.kuzu and indexed
    with `params`."""
    (root / f"{name}.tsv").write_text(text, encoding="utf-8")
    ws = Workspace.init(Settings(db_path=root / f"{name}.kuzu"), embedder=embedder)
    ws.load(root / f"{name}.tsv")
    ws.build_index(params)
    return ws


def indexed_rows(root: Path, rows: list[dict[str, str]], embedder: Embedder, hub_types: tuple[str, ...]) -> Workspace:
    """`rows` written to ROOT/graph.csv, loaded into ROOT/graph.kuzu and indexed with `hub_types`."""
    path = root / "graph.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    ws = Workspace.init(Settings(db_path=root / "graph.kuzu"), embedder=embedder)
    ws.load(path)
    ws.build_index(IndexParams(hub_types=hub_types))
    return ws


def written_with_cypher(path: Path, statements: list[tuple[str, dict[str, Any]]]) -> None:
    """A user's own Kùzu database at `path`, written statement by statement (with their parameters)."""
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    for query, params in statements:
        conn.execute(query, params)
    conn.close()
    db.close()
