"""Values a question names beside its topic ("which *drama* movies did X direct", "the *french* films
starring X", "which *comedies* did X write"): entities whose label the question writes (a plural for its
singular), outside the topic and naming no predicate or type of the graph. A chain keeps, at the first hop
whose entities the schema joins to a value's type, only those with a triple to the value
(`Narrowing.narrow`), and cites that triple."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kgqa.answering.render import LEADING_WORDS, stated_as_passive
from kgqa.answering.words import agreeing, label_words, singular, verbal_label
from kgqa.graph.layout import GraphLayout
from kgqa.question.components import VERB_FORMS
from kgqa.question.verbs import AGENT_NOUNS
from kgqa.retrieval.chains.linking import find_mention
from kgqa.retrieval.chains.reading import STOP_WORDS
from kgqa.retrieval.chains.schema import LITERAL, GraphSchema, TypeSet, types_of
from kgqa.types import Entity, Triple

#: Shortest label a value is recognised by (a word such as the genre "War", not a stray letter pair).
VALUE_MIN_LENGTH = 3
_WORD = re.compile(r"[A-Za-z0-9]+")
#: A year a question names ("2019"), a value where the chain takes year constraints.
_YEAR = re.compile(r"^(?:1[5-9]|20)\d\d$")
#: Words between a relation and its value ("written *by the* X").
_LINKS = frozenset({"by", "the", "a", "an", "in", "with", "from", "of", "as", "to", "at", "on"})
#: Words that set named things side by side or offer a choice, rather than requiring each of them.
_WEIGHS = re.compile(r"\b(?:compared?|comparing|comparison|versus|vs|than|or|either)\b", re.I)


@dataclass(frozen=True)
class NamedValue:
    """One label the question names as a value: every entity with it, and the question words naming it."""

    label: str
    entities: tuple[Entity, ...]
    words: frozenset[str]
    lead: str = ""  # the word before it, past link words ("*written* by X"), which may name its relation


def named_values(
    question: str,
    topic_span: tuple[int, int],
    find: Callable[[str], list[Entity]],
    vocabulary: frozenset[str],
    years: bool = False,
) -> list[NamedValue]:
    """The entity labels `question` writes outside the topic's span, read in the question as typed and
    with each plural as its singular ("dramas": Drama); literals (but years, with `years`: "published
    *in 2019*") and labels made only of the graph's predicate and type words (`vocabulary`: "movie",
    "director") or stop words are no values."""
    if _WEIGHS.search(question):
        return []  # "how many papers did A write compared to B", "drama or comedy": no value narrows them all
    words = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(question)]
    outside = [w for w in words if w[2] <= topic_span[0] or w[1] >= topic_span[1]]
    if not any(_may_name_a_value(w[0].lower(), vocabulary) or (years and _YEAR.match(w[0])) for w in outside):
        return []  # only relation, type and function words: no label to look up
    found: dict[str, NamedValue] = {}
    # the words outside the topic as written between them ("zora w. delacroix": a label's own punctuation)
    kept = (question[: topic_span[0]] + " " + question[topic_span[1] :]).lower()
    for text in {kept, _WORD.sub(lambda m: singular(m.group(0)), kept)}:
        spoken = _WORD.findall(text)
        for e in find(text):
            label = e.label.lower()
            year = years and e.is_literal and _YEAR.match(label) is not None
            if (e.is_literal and not year) or len(label) < VALUE_MIN_LENGTH or find_mention(text, label) is None:
                continue
            label_words = _WORD.findall(label)
            if not year and all(not _may_name_a_value(w, vocabulary) for w in label_words):
                continue  # "movies", "the director", "directed": the question's relation, type and verb words
            at = _token_index(spoken, label_words)
            typed = (
                frozenset(outside[i][0].lower() for i in range(at, at + len(label_words))) if at >= 0 else frozenset()
            )
            known = found.get(label)
            entities = (known.entities if known else ()) + (e,)
            lead = next((w for w in reversed(spoken[: max(at, 0)]) if w not in _LINKS), "") if at >= 0 else ""
            found[label] = NamedValue(
                e.label, tuple(dict.fromkeys(entities)), typed | (known.words if known else frozenset()), lead
            )
    return list(found.values())


def value_spans(text: str, values: list[NamedValue]) -> list[tuple[int, int]]:
    """Where the values' words stand in `text` (each word as a whole word, case-insensitive)."""
    words = {w for v in values for w in v.words}
    if not words:
        return []
    pattern = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return [(m.start(), m.end()) for m in re.finditer(rf"(?<!\w)(?:{pattern})(?!\w)", text, re.IGNORECASE)]


def blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with the `spans` blanked out (same length: positions stay)."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


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
    step: tuple[str, int]  # (predicate, direction) from the hop's entities to the value
    among: int

    def sentence_end(self) -> str:
        """What none of the entities is ("has genre Comedy", "is cast member of X", "is one X directed"),
        or where it was one entity, what it is not ("does not have genre Comedy", "is not ...")."""
        return _relation(self.step, self.value.label, "one" if self.among == 1 else "none")


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
    met: list[NamedValue] = field(default_factory=list)  # values the chain reached as entities on the way
    unmet: list[Unmet] = field(default_factory=list)
    triples: dict[str, list[Triple]] = field(default_factory=dict)  # kept entity id -> its value triples
    steps: list[tuple[str, int]] = field(default_factory=list)  # per used value: the step it was found along
    plan_steps: tuple[tuple[str, int], ...] = ()  # the chain's steps: a value is met along the one that reached it
    named_by: dict[str, str] = field(default_factory=dict)  # value label -> the predicate its lead word names
    kinds: dict[str, TypeSet] = field(default_factory=dict)  # value label -> its entities' schema types

    def applies(self, types_per_hop: list[set[str]]) -> bool:
        """Whether the schema joins some value to the entities of some hop (`types_per_hop`)."""
        return any(self._joins(types, v) for v in self.values for types in types_per_hop)

    def may_be_along(self, predicate: str, value: NamedValue) -> bool:
        """Whether `predicate` has some of the value's entity types at either end (a relation it may be
        met along)."""
        ends = self.schema.object_types(predicate) | self.schema.subject_types(predicate)
        return bool(self._types_of(value) & ends)

    def _types_of(self, value: NamedValue) -> TypeSet:
        """The schema's types of a value's entities (a literal's own type for literals), read once."""
        found = self.kinds.get(value.label)
        if found is None:
            found = self.kinds[value.label] = types_of(self.layout, value.entities)
        return found

    def _joins(self, types: set[str], value: NamedValue) -> list[tuple[str, int]]:
        """The steps (predicate, direction) from entities of `types` to the value's entities."""
        goal = set(self._types_of(value))
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
            if value in self.used or value in self.met or any(u.value == value for u in self.unmet):
                continue
            if any(e.id in reached for e in value.entities):
                self.met.append(value)  # one of these entities itself: the chain's `named` reads it, here only
                continue
            steps = self._joins(types, value)
            if not steps:
                continue
            named = [s for s in steps if s[0] == self.named_by.get(value.label)]
            if named:
                steps = named  # "films directed by A and *written by* B": B as screenwriter
            elif hop < len(self.plan_steps):
                back = (self.plan_steps[hop][0], -self.plan_steps[hop][1])
                steps = [back] if back in steps else steps  # "who acted in both X and Y": in Y as cast too
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
                self.unmet.append(Unmet(value, hop, steps[0], len(kept)))
                continue
            self.used.append(value)
            first = next(iter(having.values()))[0]
            self.steps.append(next(s for s in steps if s[0] == first.predicate))
            kept = {k: e for k, e in kept.items() if k in having}
            for k, ts in having.items():
                self.triples.setdefault(k, []).extend(ts[:1])
            narrowed = True
        return kept if narrowed else None

    def phrase(self) -> str:
        """The values the answer was narrowed by, in words: "with genre Drama", "with genre Drama and with
        original language French", "that are cast member of X"; empty where none was used."""
        return " and ".join(_relation(step, v.label) for v, step in zip(self.used, self.steps, strict=True))


def _relation(step: tuple[str, int], label: str, mood: str = "those") -> str:
    """How an entity relates to a value along `step`: for "those ..." ("with genre Drama", "that are cast
    member of X", "that X directed", "that acted in X"), for "none of them ..." (`mood` "none": "has genre
    Drama", "is cast member of X", "is one X directed", "acted in X") or for "the one ..." (`mood` "one":
    "does not have genre Drama", "is not cast member of X", "is not one X directed", ...)."""
    predicate, direction = step
    words = label_words(predicate) if " " not in predicate else predicate
    verbal = verbal_label(predicate)
    machine = " " not in predicate or len(words.split()) == 2  # "has_genre", or a rel table's "in genre"
    if machine and words.split()[0] in LEADING_WORDS and len(words.split()) > 1:
        words, verbal = words.split(" ", 1)[1], False  # "has_genre": "with genre Drama"
    if direction > 0 and verbal and (words.split()[-1] == "by" or stated_as_passive(words)):  # "directed by X"
        said = {"those": f"{words} {label}", "none": f"is {words} {label}", "one": f"is not {words} {label}"}
    elif direction > 0 and verbal:
        said = {
            "those": f"that {agreeing(words, 2)} {label}",
            "none": f"{words} {label}",
            "one": f"is not one that {words} {label}",
        }
    elif direction > 0:
        said = {
            "those": f"with {words} {label}",
            "none": f"has {words} {label}",
            "one": f"does not have {words} {label}",
        }
    elif verbal:
        said = {
            "those": f"that {label} {words}",
            "none": f"is one {label} {words}",
            "one": f"is not one {label} {words}",
        }
    else:
        said = {
            "those": f"that are {words} of {label}",
            "none": f"is {words} of {label}",
            "one": f"is not {words} of {label}",
        }
    return said[mood]


__all__ = ["NamedValue", "Narrowing", "Unmet", "blanked", "named_values", "value_spans"]
