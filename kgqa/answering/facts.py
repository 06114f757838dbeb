"""The facts the partial answers selected, as (source number, attribute, value) rows, and the choice of
which attribute a question phrase names. Attribute names come from the graph's predicate labels."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgqa.answering.words import content_words, is_negative_value, phrase_score, same_word, written_at
from kgqa.types import PartialAnswer

#: Predicates that only link a container to its members: the container's label names the attribute.
_GENERIC = re.compile(r"^(has )?(list )?(element|member|item|entry|value|part)s?$|list element", re.IGNORECASE)
#: Words that ask for the sources themselves (besides the hub types).
SOURCE_WORDS = ("title", "name", "publication", "article", "document", "work", "study", "entry", "record")
MIN_SCORE = 0.5
TIE = 0.15


@dataclass(frozen=True)
class Fact:
    """One selected triple, read as "source `source` has `attribute` `value`"."""

    source: int  # the citation number [i]
    attribute: str
    value: str
    constraint: bool  # the value is written in the question (it constrains, it is not asked)

    @property
    def negative(self) -> bool:
        """The value says "no" (False, "No input data used")."""
        return is_negative_value(self.value)


@dataclass
class Evidence:
    """The facts of all partial answers, with the sources' labels and types."""

    facts: list[Fact]
    labels: dict[int, str]
    types: set[str]
    question: str = ""

    def attributes(self) -> list[str]:
        """Distinct attribute names, in first-seen order."""
        return list(dict.fromkeys(f.attribute for f in self.facts))

    def of(self, attributes: list[str], source: int | None = None) -> list[Fact]:
        """The facts of these attributes (of one source when given)."""
        return [f for f in self.facts if f.attribute in attributes and (source is None or f.source == source)]


def attribute_name(predicate: str, subject_label: str) -> str:
    """The predicate, or the container's label for a generic membership predicate ("authors list" -> "authors")."""
    if _GENERIC.search(predicate) and subject_label:
        return re.sub(r"\s+list$", "", subject_label.strip(), flags=re.IGNORECASE)
    return predicate


def collect(question: str, partials: list[PartialAnswer]) -> Evidence:
    """Facts of the partial answers, numbered by source (1 = first partial answer)."""
    rows: list[tuple[int, str, str]] = []
    labels: dict[int, str] = {}
    types: set[str] = set()
    for i, p in enumerate(partials, start=1):
        labels[i] = p.hub_label
        seen: set[tuple[str, str]] = set()
        for st in p.triples:
            t = st.triple
            if t.subject.id == p.hub_id:
                types.update(x.lower() for x in t.subject.types)
            attr = attribute_name(t.predicate, t.subject.text)
            key = (attr, t.object.text)
            if key in seen or t.object.id == p.hub_id:
                continue
            seen.add(key)
            rows.append((i, attr, t.object.text))
        types.update(x.lower() for x in getattr(p, "hub_types", ()))
    written = _written_values(question, {value for _, _, value in rows})
    return Evidence([Fact(i, a, v, v in written) for i, a, v in rows], labels, types, question)


def _written_values(question: str, values: set[str]) -> set[str]:
    """The values the question writes. Where several are written at the same place, only the best
    written count: "Julia P. Nilsson" is not also "Julia L. Nilsson", "Toy Story 3" not also "Toy Story
    2", and "jula p. nilsson" is Julia P. Nilsson; values written equally well all count."""
    spans = {v: span for v in values if (span := written_at(v, question)) is not None}
    return {
        v
        for v, (start, end, score) in spans.items()
        if not any(s < end and start < e and other > score for s, e, other in spans.values())
    }


def names_sources(phrase: str, evidence: Evidence) -> float:
    """How well `phrase` names the sources themselves (a hub type such as "papers", or a title)."""
    names = list(evidence.types or {"paper"}) + list(SOURCE_WORDS)
    return max((phrase_score(phrase, n) for n in names), default=0.0)


def best_attributes(phrase: str, attributes: list[str]) -> list[str]:
    """The attributes `phrase` names: the best match (score >= MIN_SCORE) and those within TIE of it."""
    if not phrase:
        return []
    scored = [(phrase_score(phrase, a), a) for a in attributes]
    best = max((s for s, _ in scored), default=0.0)
    if best < MIN_SCORE:
        return []
    return [a for s, a in scored if s >= best - TIE]


def asked_attributes(phrase: str, evidence: Evidence) -> list[str] | None:
    """The attributes the asked phrase names, or None when it asks for the sources themselves
    ([] when it names neither: no selected fact answers it)."""
    if not phrase:
        return None
    attrs = best_attributes(phrase, evidence.attributes())
    top = max((phrase_score(phrase, a) for a in attrs), default=0.0)
    source_score = names_sources(phrase, evidence)
    if not attrs and source_score < MIN_SCORE:
        return named_in_question(evidence)  # [] when no selected fact answers it
    if not attrs or source_score >= top:
        return None
    return attrs


def named_in_question(evidence: Evidence) -> list[str]:
    """Attributes of the non-constraint facts whose every word the question writes ("located in" for
    "in which country is X located?"): the relation the question asks about under another name."""
    words = content_words(evidence.question)
    free = dict.fromkeys(f.attribute for f in evidence.facts if not f.constraint)
    return [a for a in free if content_words(a) and all(any(same_word(w, q) for q in words) for w in content_words(a))]


def numeric(value: str) -> float | None:
    """The value as a number when it is one ("2019", "0.85")."""
    try:
        return float(value.strip())
    except ValueError:
        return None


def meeting_constraints(evidence: Evidence, skip: list[str]) -> Evidence:
    """Only the sources that state every constraint of the question that some source states: for
    each attribute with a value written in the question (years and numbers aside, they bound ranges),
    a source must state one of those values. Attributes in `skip` (a negated one) are not required.
    Unchanged when no source would remain."""
    required: dict[str, set[str]] = {}
    for f in evidence.facts:
        if f.constraint and numeric(f.value) is None and f.attribute not in skip:
            required.setdefault(f.attribute, set()).add(f.value.casefold())
    if not required:
        return evidence
    keep = {
        s
        for s in evidence.labels
        if all(
            any(f.source == s and f.attribute == a and f.value.casefold() in values for f in evidence.facts)
            for a, values in required.items()
        )
    }
    if not keep or len(keep) == len(evidence.labels):
        return evidence
    return Evidence(
        [f for f in evidence.facts if f.source in keep],
        {s: label for s, label in evidence.labels.items() if s in keep},
        evidence.types,
        evidence.question,
    )
