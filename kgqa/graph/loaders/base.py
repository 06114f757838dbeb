"""What every loader yields: triple records with the entity facts a file states, and where they came from."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from kgqa.types import Entity


@dataclass(frozen=True, slots=True)
class EntityRecord:
    """An entity as one record states it. `label`/`types` None means "not stated here"."""

    id: str
    label: str | None = None
    types: tuple[str, ...] | None = None
    is_literal: bool = False

    def to_entity(self) -> Entity:
        """The entity with unstated facts defaulted."""
        return Entity(self.id, self.label if self.label is not None else "", self.types or (), self.is_literal)


@dataclass(frozen=True, slots=True)
class TripleRecord:
    """One triple of an input file, with the line (or record number) it came from."""

    subject: EntityRecord
    predicate: str
    object: EntityRecord
    line: int
    predicate_id: str = ""


@dataclass(frozen=True, slots=True)
class EntityOnlyRecord:
    """A record that only states facts about an entity (e.g. ORKG's entity records)."""

    entity: EntityRecord
    line: int


Record = TripleRecord | EntityOnlyRecord


class Loader(Protocol):
    """Parses one file format into a stream of records; raises InputError on malformed input."""

    format_name: str

    def records(self, path: Path) -> Iterator[Record]:
        """Yield the file's records in order. Errors name the file, line/record and field."""
        ...
