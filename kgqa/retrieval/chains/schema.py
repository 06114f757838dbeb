"""The graph's schema as relation chains need it: which predicates connect which entity types."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from kgqa.graph.layout import layout_of
from kgqa.graph.store import GraphStore

#: The type of a literal without types, and of an entity without types.
LITERAL = "literal"
UNTYPED = "thing"

TypeSet = frozenset[str]


def type_set(types: list[str] | tuple[str, ...] | None, is_literal: bool) -> TypeSet:
    """An entity's types as the schema keys them (literals and untyped entities get a stand-in type)."""
    if types:
        return frozenset(types)
    return frozenset({LITERAL if is_literal else UNTYPED})


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
        for predicate, s_types, o_types, o_literal, n in layout_of(store).predicate_schema():
            if predicate:
                by_pred[predicate].append(
                    Connection(predicate, type_set(s_types, False), type_set(o_types, bool(o_literal)), int(n))
                )
        return cls(dict(by_pred))

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
        return out - {LITERAL, UNTYPED}

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
