"""Single-triple edits (`kgqa triples add|delete`): checked triples from command-line values, and
deleting triples atomically, with the affected hubs marked dirty in the same transaction."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kgqa.errors import EntityNotFoundError, InputError
from kgqa.graph.layout import require_triples
from kgqa.graph.loaders.base import EntityRecord, TripleRecord
from kgqa.graph.reader import entities_by_ids, stored_triples
from kgqa.graph.store import GraphStore
from kgqa.graph.writer import ChangeObserver, LoadReport, check_text, checked, write_records
from kgqa.types import synthetic_literal_id

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")
_IRI_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_IRI_BAD = re.compile(r'[\x00-\x20<>"{}|^`\\\x7f]')
SOURCE = "command line"


@dataclass(frozen=True)
class DeleteReport:
    """What one `triples delete` did."""

    requested: int
    deleted: int
    not_found: int
    triples_total: int
    hubs_marked: int = 0


def checked_text(
    value: str | None, field: str, *, source: str = SOURCE, line: int | None = None, literal: bool = False
) -> str:
    """A non-empty id, label or predicate without control characters (a `literal` value may hold
    tabs and newlines), within the length limit."""
    text = (value or "").strip()
    if not text:
        raise InputError(f"empty {field}", source=source, line=line, field=field)
    check_text(text, field, literal, source, line)
    return text


def checked_id(value: str | None, field: str, *, source: str = SOURCE, line: int | None = None) -> str:
    """An entity id: as `checked_text`; an IRI (`<...>`, or with a `scheme://`) must be a valid one
    (angle brackets are dropped, as ids are stored without them)."""
    text = checked_text(value, field, source=source, line=line)
    bracketed = text.startswith("<") or text.endswith(">")
    if bracketed:
        if not (text.startswith("<") and text.endswith(">") and len(text) > 2):
            raise InputError(f"invalid IRI {text}: unbalanced angle brackets", source=source, line=line, field=field)
        text = text[1:-1]
    if bracketed or _SCHEME.match(text):
        bad = _IRI_BAD.search(text)
        if bad:
            raise InputError(
                f"invalid IRI <{text}>: character {bad.group()!r} is not allowed", source=source, line=line, field=field
            )
        if not _IRI_SCHEME.match(text):
            raise InputError(
                f"invalid IRI <{text}>: it has no scheme (e.g. 'http:')", source=source, line=line, field=field
            )
    return text


def triple_record(
    subject: str | None,
    predicate: str | None,
    obj: str | None,
    *,
    literal: bool = False,
    subject_label: str | None = None,
    subject_types: Iterable[str] = (),
    object_label: str | None = None,
    object_types: Iterable[str] = (),
    predicate_id: str = "",
) -> TripleRecord:
    """One checked triple from command-line values. With `literal`, `obj` is the literal's value
    (stored under a synthetic id, as the CSV loader does) unless `object_label` is given, which
    makes `obj` the literal's own id and the label its value."""
    sid = checked_id(subject, "subject")
    pred = checked_text(predicate, "predicate")
    slabel = checked_text(subject_label, "subject label") if subject_label is not None else None
    olabel = checked_text(object_label, "object label", literal=literal) if object_label is not None else None
    stypes = tuple(checked_text(t, "subject type") for t in subject_types) or None
    otypes = tuple(checked_text(t, "object type") for t in object_types) or None
    if literal and olabel is None:
        value = checked_text(obj, "object", literal=True)
        ob = EntityRecord(synthetic_literal_id(value), value, otypes, True)
    else:
        ob = EntityRecord(checked_id(obj, "object"), olabel, otypes, literal)
    return TripleRecord(EntityRecord(sid, slabel, stypes), pred, ob, 1, predicate_id)


def delete_triples(
    store: GraphStore, triples: list[tuple[str, str, str]], observer: ChangeObserver | None = None
) -> DeleteReport:
    """Delete these (subject id, predicate, object id) triples in one transaction; entities stay.
    An unknown subject or object entity is an error and nothing is deleted; a triple that is not
    in the graph (between known entities) is counted as not found."""
    require_triples(store, "cannot delete triples")
    keys = list(dict.fromkeys(triples))
    ids = list(dict.fromkeys(i for s, _, o in keys for i in (s, o)))
    known = set()
    for k in range(0, len(ids), 5000):
        known |= set(entities_by_ids(store, ids[k : k + 5000]))
    missing = [i for i in ids if i not in known]
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise EntityNotFoundError(
            f"no entit{'y' if len(missing) == 1 else 'ies'} {shown} in the graph; nothing was deleted"
        )
    with store.transaction():
        if observer is None:
            present = _present(store, keys)
        else:  # out-degrees drop: a subject may stop being a hub root
            observer.entities(s for s, _, _ in keys)
            present = observer.triples(keys, deleting=True)
        for k in range(0, len(present), 5000):
            rows = [{"s": s, "p": p, "o": o} for s, p, o in present[k : k + 5000]]
            store.run("update/delete_triples", {"rows": rows})
        if observer is not None:
            observer.finish()
    total = store.run("graph/count_triples")[0][0]
    marked = len(getattr(observer, "marked", ()))
    return DeleteReport(len(keys), len(present), len(keys) - len(present), total, marked)


def _present(store: GraphStore, keys: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    found = stored_triples(store, keys)
    return [t for t in keys if t in found]


def add_triples(
    store: GraphStore, records: list[TripleRecord], observer: ChangeObserver | None = None, source: str = SOURCE
) -> LoadReport:
    """Add checked triples (e.g. from `triple_record`) in one transaction, like a load."""
    require_triples(store, "cannot add triples")
    before_e, before_t = store.run("graph/count_entities")[0][0], store.run("graph/count_triples")[0][0]
    n = write_records(store, records, observer=observer)
    after_e, after_t = store.run("graph/count_entities")[0][0], store.run("graph/count_triples")[0][0]
    return LoadReport(
        source,
        "triples",
        n,
        after_e - before_e,
        after_t - before_t,
        after_e,
        after_t,
        len(getattr(observer, "marked", ())),
    )


def triple_records_in_file(path: str | Path, fmt: str | None = None) -> list[TripleRecord]:
    """The checked triple records of a file (any load format); records stating only an entity's facts
    are skipped. Malformed files raise InputError."""
    from kgqa.graph.loaders import detect_format, get_loader  # rdflib only when a file is read

    path = Path(path)
    loader = get_loader(fmt or detect_format(path))
    return [r for r in checked(loader.records(path), str(path)) if isinstance(r, TripleRecord)]


def triples_in_file(path: str | Path, fmt: str | None = None) -> list[tuple[str, str, str]]:
    """The (subject id, predicate, object id) of every triple a file states (ids as a load would
    store them; records that only state entity facts are skipped). Malformed files raise InputError."""
    from kgqa.graph.loaders import detect_format, get_loader  # rdflib only when a file is read

    path = Path(path)
    loader = get_loader(fmt or detect_format(path))
    return [
        (r.subject.id, r.predicate, r.object.id)
        for r in checked(loader.records(path), str(path))
        if isinstance(r, TripleRecord)
    ]
