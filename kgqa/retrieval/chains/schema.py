"""The graph's schema as relation chains need it: which predicates connect which entity types."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from kgqa.graph.layout import GraphLayout, layout_of
from kgqa.graph.store import GraphStore
from kgqa.types import Entity

#: The type of a literal without types, and of an entity without types that is the subject of some
#: triple. In a graph that types nothing, an untyped entity that is no subject is a value of the
#: predicates it is the object of (`value_kind`: a film's director is a value of `directed_by`, its year
#: one of `release_year`): the stand-ins tell a relation's two ends apart, and one value from another.
LITERAL = "literal"
UNTYPED = "thing"
VALUE = "value of"

TypeSet = frozenset[str]

#: Untyped entities whose kinds are read at once; the rest count as things.
MAX_KIND_READS = 5_000


def type_set(types: list[str] | tuple[str, ...] | None, is_literal: bool) -> TypeSet:
    """An entity's types as the schema keys them (literals and untyped entities get a stand-in type)."""
    if types:
        return frozenset(types)
    return frozenset({LITERAL if is_literal else UNTYPED})


def value_kind(predicate: str) -> str:
    """The stand-in type of an untyped entity that is no subject and the object of `predicate`."""
    return f"{VALUE} {predicate}"


def is_value(kind: str) -> bool:
    """Whether a schema type is a literal or a value of a graph that types nothing (a date, a year, a
    name may be one)."""
    return kind == LITERAL or kind.startswith(VALUE + " ")


def valued(types: Iterable[str]) -> bool:
    """Whether some of `types` is a literal or a value (`is_value`)."""
    return any(is_value(t) for t in types)


def types_of(layout: GraphLayout, entities: Iterable[Entity]) -> TypeSet:
    """The schema's types of `entities` together: an untyped one is a thing where it is the subject of
    some triple, else a value of each predicate it is the object of (read for the untyped ones only)."""
    entities = list(entities)
    untyped = [e.id for e in entities if not e.types and not e.is_literal][:MAX_KIND_READS]
    subjects = layout.subjects_among(untyped) if untyped else set()
    leaves = [i for i in untyped if i not in subjects]
    objects_of = layout.object_predicates(leaves) if leaves else {}
    out: set[str] = set()
    for e in entities:
        predicates = objects_of.get(e.id)
        if predicates and not e.types and not e.is_literal:
            out |= {value_kind(p) for p in predicates}
        else:
            out |= type_set(e.types, e.is_literal)
    return frozenset(out)


@dataclass
class Connection:
    """One predicate between one subject type set and one object type set, with its triple count."""

    predicate: str
    subjects: TypeSet
    objects: TypeSet
    triples: int


@dataclass
class GraphSchema:
    """Predicate -> the type sets it connects, read with one aggregate read of the layout."""

    connections: dict[str, list[Connection]] = field(default_factory=dict)

    @classmethod
    def read(cls, store: GraphStore) -> GraphSchema:
        """The schema of the stored graph."""
        by_pred: dict[str, list[Connection]] = defaultdict(list)
        layout = layout_of(store)
        untyped = False
        for predicate, s_types, o_types, o_literal, n in layout.predicate_schema():
            if not predicate:
                continue
            if not o_types and not o_literal:
                untyped = True  # split below into things and values
                continue
            by_pred[predicate].append(
                Connection(predicate, type_set(s_types, False), type_set(o_types, bool(o_literal)), int(n))
            )
        for predicate, s_types, subject, n in layout.untyped_objects() if untyped else ():
            if predicate:
                ends = type_set((), False) if subject else frozenset({value_kind(predicate)})
                by_pred[predicate].append(Connection(predicate, type_set(s_types, False), ends, n))
        # one order whatever order the aggregate came back in (Kùzu's may differ from run to run): the
        # predicates by name, a predicate's connections by their types
        return cls(
            {p: sorted(by_pred[p], key=lambda c: (sorted(c.subjects), sorted(c.objects))) for p in sorted(by_pred)}
        )

    @property
    def predicates(self) -> list[str]:
        """Every predicate label."""
        return list(self.connections)

    def types(self) -> set[str]:
        """Every entity type the schema names (stand-ins excluded)."""
        out: set[str] = set()
        for conns in self.connections.values():
            for c in conns:
                out |= c.subjects | c.objects
        return {t for t in out if t != UNTYPED and not is_value(t)}

    def step(self, predicate: str, direction: int, start: set[str]) -> set[str]:
        """The types reached from entities of the `start` types through `predicate` (direction +1:
        subject to object, -1: object to subject); empty when the predicate does not connect them."""
        out: set[str] = set()
        for c in self.connections.get(predicate, ()):
            here, there = (c.subjects, c.objects) if direction > 0 else (c.objects, c.subjects)
            if here & start:
                out |= there
        return out

    def weight(self, predicate: str, direction: int, start: set[str], goal: set[str]) -> int:
        """How many triples of `predicate` lead from the `start` types to the `goal` types."""
        total = 0
        for c in self.connections.get(predicate, ()):
            here, there = (c.subjects, c.objects) if direction > 0 else (c.objects, c.subjects)
            if here & start and there & goal:
                total += c.triples
        return total

    def object_types(self, predicate: str) -> set[str]:
        """The types of the predicate's objects."""
        return {t for c in self.connections.get(predicate, ()) for t in c.objects}

    def subject_types(self, predicate: str) -> set[str]:
        """The types of the predicate's subjects."""
        return {t for c in self.connections.get(predicate, ()) for t in c.subjects}
