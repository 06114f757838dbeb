"""Data model of HubLink (thesis §4.2–4.3): entities, triples, hub paths, hubs and questions, and
the sources and ranked hubs of an answer."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

if TYPE_CHECKING:
    import numpy as np

#: Prefix of the synthetic ids given to literals that have no id of their own (RDF, CSV).
#: Such ids are storage keys only: the canonical string shows the literal's label alone.
SYNTHETIC_ID_PREFIX = "_lit:"


def synthetic_literal_id(value: str, datatype: str = "") -> str:
    """A stable storage key for a literal without an id of its own."""
    digest = hashlib.sha1(f"{datatype}\x1f{value}".encode()).hexdigest()[:20]
    return f"{SYNTHETIC_ID_PREFIX}{digest}"


_IRI = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*://|urn:)", re.IGNORECASE)


def name_from_id(entity_id: str) -> str:
    """The name an entity's id gives it where no record states a label: an IRI's last segment, decoded,
    with underscores as spaces (`http://ex.org/film/Silent_Echo` -> `Silent Echo`); a blank node or a
    synthetic literal id none (""); any other id is the name itself, as in a triple file that names its
    entities (`Silent Echo<TAB>directed_by<TAB>Ines Brannigan`)."""
    if entity_id.startswith(("_:", SYNTHETIC_ID_PREFIX)):
        return ""
    if not _IRI.match(entity_id):
        return entity_id.strip()
    return " ".join(unquote(local_name(entity_id)).replace("_", " ").split())


def local_name(iri: str) -> str:
    """The part of an IRI after its last `#` or `/` (or `:` if it has neither)."""
    trimmed = iri.rstrip("#/")
    cut = max(trimmed.rfind("#"), trimmed.rfind("/"))
    if cut < 0:
        cut = trimmed.rfind(":")
    return trimmed[cut + 1 :] or iri


@dataclass(frozen=True, slots=True)
class Entity:
    """A node of the graph: a resource or a literal."""

    id: str
    label: str = ""
    types: tuple[str, ...] = ()
    is_literal: bool = False

    @property
    def has_own_id(self) -> bool:
        """False for literals that only carry a synthetic storage key."""
        return not self.id.startswith(SYNTHETIC_ID_PREFIX)

    @property
    def display(self) -> str:
        """The entity as written in a canonical triple string."""
        if not self.has_own_id or not self.id:
            return self.label
        if not self.label or self.label == self.id:
            return self.id
        return f"{self.id}:{self.label}"

    @property
    def text(self) -> str:
        """The text that represents the entity for embedding and answers."""
        return self.label or self.id


@dataclass(frozen=True, slots=True)
class Triple:
    """A directed edge (subject, predicate, object)."""

    subject: Entity
    predicate: str
    object: Entity
    #: (name, value) of each property the edge itself carries (a rel table's properties in a user's own
    #: property graph: `USES {amount: '200 g'}`); not part of the triple's identity.
    qualifiers: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def canonical(self) -> str:
        """The canonical triple string used in every output and in evaluation."""
        return f"({self.subject.display}, {self.predicate}, {self.object.display})"

    @property
    def qualifier_text(self) -> str:
        """The edge's own properties as `amount: 200 g, unit: g` ("" where it has none)."""
        return ", ".join(f"{k}: {v}" for k, v in self.qualifiers)

    @property
    def stated(self) -> str:
        """The canonical string with the edge's own properties after it: `(A, uses, B) {amount: 200 g}`."""
        return f"{self.canonical} {{{self.qualifier_text}}}" if self.qualifiers else self.canonical

    @property
    def text(self) -> str:
        """The label form of the triple, used for embedding (no ids)."""
        return f"({self.subject.text}, {self.predicate}, {self.object.text})"


def path_hash(triples: tuple[Triple, ...] | list[Triple]) -> str:
    """Stable hash of a triple path: SHA-256 over its canonical triple strings."""
    h = hashlib.sha256()
    for t in triples:
        h.update(t.canonical.encode("utf-8"))
        h.update(b"\x1e")
    return h.hexdigest()[:32]


def text_hash(text: str) -> str:
    """Key of an embedded text (identical texts are embedded once)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class Direction(str, Enum):
    """How an entity was reached while traversing: as object (forward) or as subject (backward)."""

    FORWARD = "forward"  # reached as the object of the last triple ("right" in the thesis)
    BACKWARD = "backward"  # reached as the subject of the last triple ("left" in the thesis)


@dataclass(frozen=True, slots=True)
class EntityWithDirection:
    """An entity with the direction it was reached in and the triple path that led there."""

    entity_id: str
    direction: Direction
    path: tuple[Triple, ...] = ()


class VectorLevel(str, Enum):
    """The four granularities at which a hub path is embedded (thesis §4.2.6)."""

    PATH = "path"
    TRIPLE = "triple"
    ENTITY = "entity"
    PREDICATE = "predicate"


@dataclass(slots=True)
class HubPath:
    """A path of triples from a hub root, with its text and its score for a question."""

    hub_id: str
    hash: str
    triples: tuple[Triple, ...]
    text: str
    embedded_text: str = ""
    level: VectorLevel = VectorLevel.PATH
    score: float = 0.0
    component_sims: tuple[float, ...] = ()  # coverage scoring: best similarity per component


@dataclass(slots=True)
class Hub:
    """A hub root with the paths retrieved for a question and its aggregated score."""

    root: Entity
    paths: list[HubPath] = field(default_factory=list)
    score: float = 0.0
    via: tuple[Triple, ...] = ()  # traversal path from the topic entity (graph traversal strategy)


@dataclass(slots=True)
class ProcessedQuestion:
    """A question with its extracted components and the embeddings of both."""

    question: str
    components: list[str]
    embeddings: np.ndarray  # (1 + len(components), dim), L2-normalised
    anchors: tuple[bool, ...] = ()  # per component: names a value to match (see question/components.py)
    negated: tuple[bool, ...] = ()  # per component: an attribute the question negates


@dataclass(frozen=True, slots=True)
class Source:
    """A source an answer cites as `[n]`: the hub (its root entity) the cited claims come from."""

    n: int
    hub_id: str
    label: str

    def as_dict(self) -> dict[str, Any]:
        """For JSON output."""
        return {"n": self.n, "hub_id": self.hub_id, "label": self.label}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Source:
        """The inverse of `as_dict`."""
        return cls(int(data["n"]), str(data["hub_id"]), str(data["label"]))


@dataclass(frozen=True, slots=True)
class RankedHub:
    """A hub a retriever kept, best first: its score, whether the answer cites it, and how many of
    its paths (or evidence triples) it brought."""

    hub_id: str
    label: str
    score: float
    cited: bool = False
    paths: int = 0

    def as_dict(self) -> dict[str, Any]:
        """For JSON output."""
        return {
            "hub_id": self.hub_id,
            "label": self.label,
            "score": self.score,
            "cited": self.cited,
            "paths": self.paths,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RankedHub:
        """The inverse of `as_dict`."""
        return cls(
            str(data["hub_id"]),
            str(data["label"]),
            float(data["score"]),
            bool(data.get("cited", False)),
            int(data.get("paths", 0)),
        )


@dataclass(frozen=True)
class ScoredTriple:
    """A triple from a hub with its relevance to the question."""

    triple: Triple
    score: float
    hub_id: str
    per_query: tuple[float, ...] = ()  # relevance to the question (0) and to each component (1..)


@dataclass
class PartialAnswer:
    """A hub's contribution to the answer (None from the role means the hub declined)."""

    hub_id: str
    hub_label: str
    text: str
    triples: list[ScoredTriple] = field(default_factory=list)
    hub_types: tuple[str, ...] = ()  # the hub root's types ("Paper"): what "which papers" asks for


@dataclass
class Answer:
    """What a retriever returns for one question."""

    question: str
    answer: str
    sources: list[Source]  # what the answer's [n] citations refer to
    triples: list[str]  # canonical triple strings, most relevant first
    hubs: list[RankedHub]  # kept hubs with scores, best first
    retriever: str = ""
    mode: str = "offline"  # which LLM provider produced the answer
    strategy: str = ""
    topic_entity: str | None = None
    components: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    llm_tokens: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)  # a retriever's steps (SimGRAG, CoE)
    result: dict[str, Any] | None = None  # {"operation", "value", "items", "groups"} (docs/answers.md)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (the `ask --json` output)."""
        return {
            "question": self.question,
            "answer": self.answer,
            "sources": [s.as_dict() for s in self.sources],
            "triples": self.triples,
            "hubs": [h.as_dict() for h in self.hubs],
            "retriever": self.retriever,
            "mode": self.mode,
            "strategy": self.strategy,
            "topic_entity": self.topic_entity,
            "components": self.components,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "llm_tokens": self.llm_tokens,
            "notes": self.notes,
            "result": self.result,
            **({"trace": self.trace} if self.trace else {}),
        }
