"""`kgqa load FILE --graph postgres`: the same readers and checks as the Kùzu loader
(kgqa/graph/writer.py), written with binary COPY into staging tables and merged into the index
schema's `entities` and `triples` in one transaction (all or nothing)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kgqa.graph.loaders.base import EntityOnlyRecord, EntityRecord, TripleRecord
from kgqa.graph.writer import LoadReport, checked, merge_entity
from kgqa.postgres.graph_store import PgGraph
from kgqa.progress import ProgressFn, no_progress
from kgqa.types import name_from_id

#: Progress is reported every this many records read.
_REPORT_EVERY = 5000


def load_into_postgres(
    graph: PgGraph,
    path: str | Path,
    fmt: str | None = None,
    *,
    on_progress: ProgressFn = no_progress,
    hubs_of: Callable[[list[str]], list[str]] | None = None,
) -> LoadReport:
    """Load one file into the graph in Postgres, atomically. With an index built already, the
    triggers mark the touched entities dirty in the same transaction (`kgqa serve` refreshes their
    hubs): the report counts those entities and, with `hubs_of` (the refresher's backward walk), the
    hubs they reach. Before any index exists the marks are cleared (the first build covers everything)."""
    from kgqa.graph.loaders import detect_format, get_loader  # rdflib only when a file is loaded

    path = Path(path)
    fmt = fmt or detect_format(path)
    entities: dict[str, EntityRecord] = {}
    triples: dict[tuple[str, str, str], str] = {}
    n = 0
    for rec in checked(get_loader(fmt).records(path), str(path)):
        if isinstance(rec, TripleRecord):
            merge_entity(entities, rec.subject)
            merge_entity(entities, rec.object)
            triples.setdefault((rec.subject.id, rec.predicate, rec.object.id), rec.predicate_id or "")
        elif isinstance(rec, EntityOnlyRecord):
            merge_entity(entities, rec.entity)
        n += 1
        if n % _REPORT_EVERY == 0:
            on_progress("read", n, None)
    graph.ensure_tables()
    db = graph.db
    with db.transaction():
        db.run("graph_stage_create")
        db.run("graph_stage_triples_create")
        db.copy(
            "graph_copy_entities",
            ["text", "text", "text[]", "bool", "text"],
            (
                (e.id, e.label, list(e.types or ()), e.is_literal, "" if e.is_literal else name_from_id(e.id))
                for e in entities.values()
            ),
        )
        db.copy(
            "graph_copy_triples", ["text", "text", "text", "text"], ((s, p, o, i) for (s, p, o), i in triples.items())
        )
        entities_added = int(db.run("graph_merge_entities")[0][0])
        db.run("graph_name_unlabelled")
        triples_added = int(db.run("graph_merge_triples")[0][0])
        marked: list[str] = []
        if db.scalar("index_tables_exist"):
            marked = [r[0] for r in db.run("graph_marked_here")]
        else:
            db.run("graph_clear_all_dirty")
        total_e, _lit, total_t, _preds = db.run("graph_counts")[0]
    on_progress("load", n, n)
    hubs = len(hubs_of(marked)) if marked and hubs_of is not None else 0
    return LoadReport(
        str(path), fmt, n, entities_added, triples_added, int(total_e), int(total_t), hubs, entities_marked=len(marked)
    )
