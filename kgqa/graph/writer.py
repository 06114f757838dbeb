"""Writes loader records into the graph: batched, idempotent, and all-or-nothing per load."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from kgqa.graph.loaders.base import EntityOnlyRecord, EntityRecord, Record, TripleRecord
from kgqa.graph.store import GraphStore
from kgqa.progress import ProgressFn, no_progress


@dataclass(frozen=True)
class LoadReport:
    """What one load did."""

    source: str
    format: str
    records: int
    entities_added: int
    triples_added: int
    entities_total: int
    triples_total: int


def _batched(items: Iterable[Record], size: int) -> Iterator[list[Record]]:
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def _merge(into: dict[str, EntityRecord], rec: EntityRecord) -> None:
    old = into.get(rec.id)
    if old is None:
        into[rec.id] = rec
        return
    label = rec.label if rec.label is not None else old.label
    if old.types is None:
        types = rec.types
    elif rec.types is None:
        types = old.types
    else:
        types = old.types + tuple(t for t in rec.types if t not in old.types)
    into[rec.id] = EntityRecord(rec.id, label, types, old.is_literal or rec.is_literal)


def _entity_rows(entities: dict[str, EntityRecord]) -> list[dict[str, object]]:
    return [{"id": e.id, "label": e.label, "types": list(e.types or ()), "is_literal": e.is_literal}
            for e in entities.values()]


def write_records(store: GraphStore, records: Iterable[Record], *, batch_size: int = 5000,
                  on_progress: ProgressFn = no_progress, phase: str = "load") -> int:
    """Write records in batches inside one transaction; return the number of records read.
    Any error (from the loader or the database) rolls the whole load back."""
    count = 0
    with store.transaction():
        for batch in _batched(records, batch_size):
            entities: dict[str, EntityRecord] = {}
            triples: dict[tuple[str, str, str], str] = {}
            for rec in batch:
                if isinstance(rec, TripleRecord):
                    _merge(entities, rec.subject)
                    _merge(entities, rec.object)
                    triples.setdefault((rec.subject.id, rec.predicate, rec.object.id), rec.predicate_id)
                elif isinstance(rec, EntityOnlyRecord):
                    _merge(entities, rec.entity)
            if entities:
                store.run("graph/upsert_entities", {"rows": _entity_rows(entities)})
            if triples:
                rows = [{"s": s, "p": p, "pid": pid, "o": o} for (s, p, o), pid in triples.items()]
                store.run("graph/upsert_triples", {"rows": rows})
            count += len(batch)
            on_progress(phase, count, None)
    return count


def load_file(store: GraphStore, path: str | Path, fmt: str | None = None, *, batch_size: int = 5000,
              on_progress: ProgressFn = no_progress) -> LoadReport:
    """Load one file (format from `fmt` or the extension) into the graph, atomically."""
    from kgqa.graph.loaders import detect_format, get_loader  # rdflib only when a file is loaded

    path = Path(path)
    fmt = fmt or detect_format(path)
    loader = get_loader(fmt)
    before_e = store.run("graph/count_entities")[0][0]
    before_t = store.run("graph/count_triples")[0][0]
    n = write_records(store, loader.records(path), batch_size=batch_size, on_progress=on_progress)
    after_e = store.run("graph/count_entities")[0][0]
    after_t = store.run("graph/count_triples")[0][0]
    return LoadReport(str(path), fmt, n, after_e - before_e, after_t - before_t, after_e, after_t)
