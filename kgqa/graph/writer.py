"""Writes loader records into the graph: batched, idempotent, and all-or-nothing per load."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Protocol

import pyarrow as pa

from kgqa.errors import InputError
from kgqa.graph.layout import require_triples
from kgqa.graph.loaders.base import EntityOnlyRecord, EntityRecord, Record, TripleRecord
from kgqa.graph.reader import stored_triples
from kgqa.graph.store import GraphStore
from kgqa.progress import ProgressFn, no_progress
from kgqa.types import name_from_id


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
    hubs_marked: int = 0  # hubs marked dirty by this load (see kgqa/indexing/dirty.py)
    entities_marked: int | None = None  # the graph in Postgres: the entities its triggers marked (None: Kùzu)


class ChangeObserver(Protocol):
    """Told, inside the load's transaction, what is about to change; marks the affected hubs at the end
    (kgqa.indexing.dirty.DirtyTracker)."""

    def entities(self, ids: Iterable[str]) -> None:
        """Before the entities are written."""
        ...

    def triples(self, rows: list[tuple[str, str, str]], *, deleting: bool = False) -> list[tuple[str, str, str]]:
        """Before the triples are written (or deleted); returns those that change the graph."""
        ...

    def finish(self) -> list[str]:
        """After writing, before the commit: mark the affected hubs; returns their ids."""
        ...


def _batched(items: Iterable[Record], size: int) -> Iterator[list[Record]]:
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def merge_entity(into: dict[str, EntityRecord], rec: EntityRecord) -> None:
    """Add `rec` to `into`, merged with an earlier record of the same id (label, types, literal flag)."""
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


def _entity_table(entities: list[EntityRecord]) -> pa.Table:
    return pa.table(
        {
            "eid": [e.id for e in entities],
            "label": pa.array([e.label for e in entities], pa.string()),
            "name": pa.array([name_from_id(e.id) if not e.is_literal else "" for e in entities], pa.string()),
            "types": pa.array([list(e.types or ()) for e in entities], pa.list_(pa.string())),
            "is_literal": pa.array([e.is_literal for e in entities], pa.bool_()),
        }
    )


def _upsert_entities(store: GraphStore, entities: dict[str, EntityRecord]) -> None:
    """Create new entities and merge the records of stored ones (label, types, literal flag)."""
    stored = {r[0] for r in store.run_with_table("graph/stored_entities", pa.table({"eid": list(entities)}))}
    new = [e for i, e in entities.items() if i not in stored]
    old = [e for i, e in entities.items() if i in stored]
    if new:
        store.run_with_table("graph/insert_entities", _entity_table(new))
    if old:
        store.run_with_table("graph/update_entities", _entity_table(old))


#: The longest id, label or predicate accepted (the CSV reader's field limit, for every format).
MAX_TEXT_CHARS = 131_072


def checked(records: Iterable[Record], source: str) -> Iterator[Record]:
    """Pass records through, refusing texts over MAX_TEXT_CHARS, control characters (see
    `control_character`) and a file without any record."""
    n = 0
    for rec in records:
        n += 1
        entities = (rec.subject, rec.object) if isinstance(rec, TripleRecord) else (rec.entity,)
        fields = (
            [("subject", entities[0]), ("object", entities[-1])]
            if isinstance(rec, TripleRecord)
            else [("entity", entities[0])]
        )
        for name, ent in fields:
            texts = [(f"{name} id", ent.id, False), (f"{name} label", ent.label or "", ent.is_literal)]
            texts += [(f"{name} type", t, False) for t in ent.types or ()]
            for field, text, literal in texts:
                check_text(text, field, literal, source, rec.line)
        if isinstance(rec, TripleRecord):
            check_text(rec.predicate, "predicate", False, source, rec.line)
        yield rec
    if n == 0:
        raise InputError("the file is empty (no triples or entities)", source=source)


#: C0 control characters and DEL; a literal's value may hold tabs and newlines.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROL_IN_LITERAL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def control_character(text: str, literal: bool = False) -> str | None:
    """The first control character of `text` that an id, label or predicate may not hold (for a
    literal value: any but tab and newline), or None."""
    bad = (_CONTROL_IN_LITERAL if literal else _CONTROL).search(text)
    return bad.group() if bad else None


def check_text(text: str, field: str, literal: bool, source: str, line: int | None) -> None:
    """InputError (naming source, line and field) for text over the length limit or with a control
    character (a `literal` value may hold tabs and newlines)."""
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(
            f"{len(text):,} characters; the limit is {MAX_TEXT_CHARS:,}", source=source, line=line, field=field
        )
    bad = control_character(text, literal)
    if bad is not None:
        raise InputError(f"control character {bad!r} is not allowed", source=source, line=line, field=field)


def write_records(
    store: GraphStore,
    records: Iterable[Record],
    *,
    batch_size: int = 5000,
    on_progress: ProgressFn = no_progress,
    phase: str = "load",
    observer: ChangeObserver | None = None,
) -> int:
    """Write records in batches inside one transaction; return the number of records read.
    Any error (from the loader or the database) rolls the whole load back. An `observer` sees each
    batch before it is written and marks the affected hubs in the same transaction."""
    require_triples(store, "cannot load triples")
    count = 0
    with store.transaction():
        for batch in _batched(records, batch_size):
            entities: dict[str, EntityRecord] = {}
            triples: dict[tuple[str, str, str], str] = {}
            for rec in batch:
                if isinstance(rec, TripleRecord):
                    merge_entity(entities, rec.subject)
                    merge_entity(entities, rec.object)
                    triples.setdefault((rec.subject.id, rec.predicate, rec.object.id), rec.predicate_id)
                elif isinstance(rec, EntityOnlyRecord):
                    merge_entity(entities, rec.entity)
            if observer is not None:
                observer.entities(entities)
                observer.triples([(s, p, o) for s, p, o in triples])
            if entities:
                _upsert_entities(store, entities)
            if triples:
                _insert_new_triples(store, triples)
            count += len(batch)
            on_progress(phase, count, None)
        if observer is not None:
            observer.finish()
    return count


def load_file(
    store: GraphStore,
    path: str | Path,
    fmt: str | None = None,
    *,
    batch_size: int = 5000,
    on_progress: ProgressFn = no_progress,
    observer: ChangeObserver | None = None,
) -> LoadReport:
    """Load one file (format from `fmt` or the extension) into the graph, atomically (with the
    `observer`'s dirty-hub marks)."""
    from kgqa.graph.loaders import detect_format, get_loader  # rdflib only when a file is loaded

    path = Path(path)
    fmt = fmt or detect_format(path)
    loader = get_loader(fmt)
    before_e = store.run("graph/count_entities")[0][0]
    before_t = store.run("graph/count_triples")[0][0]
    n = write_records(
        store,
        checked(loader.records(path), str(path)),
        batch_size=batch_size,
        on_progress=on_progress,
        observer=observer,
    )
    after_e = store.run("graph/count_entities")[0][0]
    after_t = store.run("graph/count_triples")[0][0]
    marked = len(getattr(observer, "marked", ()))
    return LoadReport(str(path), fmt, n, after_e - before_e, after_t - before_t, after_e, after_t, marked)


def _insert_new_triples(store: GraphStore, triples: dict[tuple[str, str, str], str]) -> None:
    """Create the triples (subject, predicate, object) -> predicate id that are not stored yet."""
    have = stored_triples(store, list(triples))
    keys = [k for k in triples if k not in have]
    if keys:
        store.run_with_table(
            "graph/insert_triples",
            pa.table(
                {
                    "sid": [k[0] for k in keys],
                    "pred": [k[1] for k in keys],
                    "pid": pa.array([triples[k] for k in keys], pa.string()),
                    "oid": [k[2] for k in keys],
                }
            ),
        )
