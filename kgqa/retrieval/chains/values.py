"""Values a question names beside its topic ("which *drama* movies did X direct", "the *french* films
starring X", "which *comedies* did X write"): entities whose label the question writes (a plural for its
singular), outside the topic and naming no predicate or type of the graph. A chain keeps, at the first hop
whose entities the schema joins to a value's type, only those with a triple to the value
(`Narrowing.narrow`), and cites that triple."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kgqa.answering.words import label_words, singular
from kgqa.graph.layout import GraphLayout
from kgqa.question.components import VERB_FORMS
from kgqa.question.verbs import AGENT_NOUNS
from kgqa.retrieval.chains.linking import find_mention
from kgqa.retrieval.chains.reading import STOP_WORDS
from kgqa.retrieval.chains.schema import LITERAL, GraphSchema, type_set
from kgqa.types import Entity, Triple

#: Shortest label a value is recognised by (a word, not a stray letter pair).
VALUE_MIN_LENGTH = 4
_WORD = re.compile(r"[A-Za-z0-9]+")
#: Words that set named things side by side or offer a choice, rather than requiring each of them.
_WEIGHS = re.compile(r"\b(?:compared?|comparing|comparison|versus|vs|than|or|either)\b", re.I)


@dataclass(frozen=True)
class NamedValue:
    """One label the question names as a value: every entity with it, and the question words naming it."""

    label: str
    entities: tuple[Entity, ...]
    words: frozenset[str]


def named_values(
    question: str,
    topic_span: tuple[int, int],
    find: Callable[[str], list[Entity]],
    vocabulary: frozenset[str],
) -> list[NamedValue]:
    """The entity labels `question` writes outside the topic's span, read in the question as typed and
    with each plural as its singular ("dramas": Drama); literals and labels made only of the graph's
    predicate and type words (`vocabulary`: "movie", "director") or stop words are no values."""
    if _WEIGHS.search(question):
        return []  # "how many papers did A write compared to B", "drama or comedy": no value narrows them all
    words = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(question)]
    outside = [w for w in words if w[2] <= topic_span[0] or w[1] >= topic_span[1]]
    if not any(_may_name_a_value(w[0].lower(), vocabulary) for w in outside):
        return []  # only relation, type and function words: no label to look up
    found: dict[str, NamedValue] = {}
    for text in {
        " ".join(w[0].lower() for w in outside),
        " ".join(singular(w[0].lower()) for w in outside),
    }:
        spoken = text.split()
        for e in find(text):
            label = e.label.lower()
            if e.is_literal or len(label) < VALUE_MIN_LENGTH or find_mention(text, label) is None:
                continue
            label_words = _WORD.findall(label)
            if all(w in vocabulary or w in STOP_WORDS for w in label_words):
                continue  # "movies", "the director": the question's relation and type words, not values
            at = _token_index(spoken, label_words)
            typed = (
                frozenset(outside[i][0].lower() for i in range(at, at + len(label_words))) if at >= 0 else frozenset()
            )
            known = found.get(label)
            entities = (known.entities if known else ()) + (e,)
            found[label] = NamedValue(
                e.label, tuple(dict.fromkeys(entities)), typed | (known.words if known else frozenset())
            )
    return list(found.values())


def _may_name_a_value(word: str, vocabulary: frozenset[str]) -> bool:
    """Whether a question word may be (part of) a value's label: not a function word, nor a word of the
    graph's predicates and types, nor a verb form ("directed", "starring")."""
    if len(word) < 3 or word in STOP_WORDS or word in vocabulary or singular(word) in vocabulary:
        return False
    return word not in VERB_FORMS and word not in AGENT_NOUNS


def _token_index(spoken: list[str], label_words: list[str]) -> int:
    n = len(label_words)
    return next((i for i in range(len(spoken) - n + 1) if spoken[i : i + n] == label_words), -1)


@dataclass(frozen=True)
class Unmet:
    """A value the schema joins to a hop's entities that none of them has: at which hop, along which
    predicate it would be, among how many entities."""

    value: NamedValue
    hop: int
    predicate: str
    among: int


@dataclass
class Narrowing:
    """Narrows a chain's hops to the entities that have a triple to a named value: each value at the
    first hop the schema joins to its type and where some entity has it. `unmet` holds the values the
    schema joined to a hop but no entity there had (the question asks for nothing the graph holds)."""

    layout: GraphLayout
    schema: GraphSchema
    values: list[NamedValue]
    cap: int
    used: list[NamedValue] = field(default_factory=list)
    unmet: list[Unmet] = field(default_factory=list)
    triples: dict[str, list[Triple]] = field(default_factory=dict)  # kept entity id -> its value triples
    predicates: list[str] = field(default_factory=list)  # per used value: the predicate it was found along

    def applies(self, types_per_hop: list[set[str]]) -> bool:
        """Whether the schema joins some value to the entities of some hop (`types_per_hop`)."""
        return any(self._joins(types, v) for v in self.values for types in types_per_hop)

    def _joins(self, types: set[str], value: NamedValue) -> list[tuple[str, int]]:
        """The steps (predicate, direction) from entities of `types` to the value's entities."""
        goal = {t for e in value.entities for t in type_set(e.types, e.is_literal)}
        if not goal or not types or types <= {LITERAL}:
            return []
        return [
            (p, d)
            for p in sorted(self.schema.predicates)
            for d in (1, -1)
            if self.schema.step(p, d, types) & goal and self.schema.weight(p, d, types, goal)
        ]

    def narrow(self, hop: int, types: set[str], reached: dict[str, Entity]) -> dict[str, Entity] | None:
        """The entities of `reached` (a hop's entities, of `types`) that have a triple to each value not
        used yet that the schema joins to them; None where no value applies here."""
        kept = reached
        narrowed = False
        for value in self.values:
            if value in self.used or any(u.value == value for u in self.unmet):
                continue
            steps = self._joins(types, value)
            if not steps or any(e.id in reached for e in value.entities):
                continue  # the value is one of these entities itself: the chain's `named` reads it
            ids = {e.id for e in value.entities}
            having: dict[str, list[Triple]] = {}
            for predicate, direction in steps:
                for from_id, to_id, _l, _lit, _t in self.layout.step(
                    list(kept.values()), predicate, direction, self.cap
                ):
                    if to_id in ids:
                        here, there = kept[from_id], next(e for e in value.entities if e.id == to_id)
                        t = Triple(here, predicate, there) if direction > 0 else Triple(there, predicate, here)
                        having.setdefault(from_id, []).append(t)
            if not having:
                self.unmet.append(Unmet(value, hop, steps[0][0], len(kept)))
                continue
            self.used.append(value)
            self.predicates.append(next(iter(having.values()))[0].predicate)
            kept = {k: e for k, e in kept.items() if k in having}
            for k, ts in having.items():
                self.triples.setdefault(k, []).extend(ts[:1])
            narrowed = True
        return kept if narrowed else None

    def phrase(self) -> str:
        """The values the answer was narrowed by, in words: "genre Drama", "genre Drama and original
        language French"; empty where none was used."""
        return " and ".join(f"{label_words(p)} {v.label}" for v, p in zip(self.used, self.predicates, strict=True))


__all__ = ["NamedValue", "Narrowing", "Unmet", "named_values"]
