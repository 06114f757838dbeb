"""Yes or no from the triples between a question's topic and the value it names ("is X a drama", "was X
released in 1990", "did A direct X"), for graphs whose exact answers have no catalog to say it (a graph
without types): yes where a triple joins the two by the relation the question names (by any relation
where it names none), no where the one of them that is the subject of that relation holds other values
of it, and nothing where the graph states neither."""

from __future__ import annotations

from dataclasses import dataclass

from kgqa.answering.render import attribute_noun
from kgqa.answering.words import join_items
from kgqa.graph.reader import in_edges, out_edges
from kgqa.graph.store import GraphStore
from kgqa.types import Entity, Triple

#: Values shown in a "no" ("has the genres A, B and C, not D").
SHOWN = 5


@dataclass(frozen=True)
class Verdict:
    """A yes/no answer: its sentence around the citation of the entity it rests on ("Yes, 'X' has the
    genre Horror" + cite + ""), the triples it rests on, and that entity."""

    yes: bool
    head: str
    tail: str  # after the citation (", not Drama"); the sentence ends with "."
    triples: tuple[Triple, ...]
    cited: Entity
    values: tuple[str, ...]  # what the cited entity holds of the relation (the result's items)

    def text(self, cite: str) -> str:
        """The sentence with `cite` (" [1]", or "" where the entity is no source)."""
        return f"{self.head}{cite}{self.tail}."


def verdict(
    store: GraphStore, topic: list[Entity], values: list[Entity], asked: frozenset[str] | None
) -> Verdict | None:
    """Whether a triple joins `topic` and one of `values` by a predicate of `asked` (any predicate where
    `asked` is None); None where the graph holds nothing to tell either way."""
    topic_ids = {e.id for e in topic}
    value_ids = {e.id for e in values}
    topic_out = out_edges(store, topic_ids)
    joining = [t for t in topic_out + in_edges(store, topic_ids) if _other(t, topic_ids) in value_ids]
    hits = [t for t in joining if asked is None or t.predicate in asked]
    if hits:
        t = hits[0]
        objects = [h.object.text for h in hits if h.subject.id == t.subject.id and h.predicate == t.predicate]
        noun = attribute_noun(t.predicate, len(objects))
        return Verdict(
            True,
            f"Yes, '{t.subject.text}' has the {noun} {join_items(objects)}",
            "",
            tuple(hits),
            t.subject,
            tuple(objects),
        )
    relations = asked if asked is not None else _relations_of(store, value_ids)
    if not relations:
        return None
    # the topic holds other values of the relation, or the value holds others than the topic
    for held_by, named in ((topic_out, values), (None, topic)):
        out = held_by if held_by is not None else out_edges(store, value_ids)
        held = [t for t in out if t.predicate in relations]
        if held:
            first = held[0]
            held = [t for t in held if t.subject.id == first.subject.id and t.predicate == first.predicate]
            objects = [t.object.text for t in held]
            noun = attribute_noun(first.predicate, len(objects))
            shown = join_items(objects[:SHOWN] + ([f"{len(objects) - SHOWN} more"] if len(objects) > SHOWN else []))
            head = f"No, '{first.subject.text}' has the {noun} {shown}"
            return Verdict(False, head, f", not {named[0].text}", tuple(held[:SHOWN]), first.subject, tuple(objects))
    return None


def _other(t: Triple, ids: set[str]) -> str:
    """The end of `t` that is not one of `ids` (the object where both are)."""
    return t.object.id if t.subject.id in ids else t.subject.id


def _relations_of(store: GraphStore, value_ids: set[str]) -> frozenset[str]:
    """The predicates the values are objects of: what "a drama" or "1990" is a value of."""
    return frozenset(t.predicate for t in in_edges(store, value_ids))
