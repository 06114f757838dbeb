"""Generation for the seed-paper retrievers: retrieved triples, grouped by the entity a reader would cite
(a triple's subject for DiFaR, a subgraph's answer node for SimGRAG, a chain's start for CoE), become
partial answers that the LLM roles combine into one answer with `[i]` citations (offline: one cited
line per group, listing its triples)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kgqa.llm.base import AnswerRoles, FinalAnswer, PartialAnswer, ScoredTriple
from kgqa.types import RankedHub, Source


@dataclass
class EvidenceGroup:
    """Triples cited together under one source entity."""

    source_id: str
    source_label: str
    triples: list[ScoredTriple] = field(default_factory=list)
    text: str = ""  # a ready verbalisation (e.g. a SimGRAG subgraph); else the triples are listed

    @property
    def score(self) -> float:
        """The group's best triple score."""
        return max((st.score for st in self.triples), default=0.0)

    def render(self) -> str:
        """`label: predicate: object; subject — predicate: object` (facts about the source are short)."""
        if self.text:
            return f"{self.source_label}: {self.text}"
        facts = [
            f"{st.triple.predicate}: {st.triple.object.text}"
            if st.triple.subject.id == self.source_id
            else f"{st.triple.subject.text} — {st.triple.predicate}: {st.triple.object.text}"
            for st in self.triples
        ]
        return f"{self.source_label}: {'; '.join(facts)}"


def group_by_subject(scored: list[ScoredTriple]) -> list[EvidenceGroup]:
    """One group per subject entity, in order of the subject's best-ranked triple."""
    groups: dict[str, EvidenceGroup] = {}
    for st in scored:
        s = st.triple.subject
        groups.setdefault(s.id, EvidenceGroup(s.id, s.text)).triples.append(st)
    return list(groups.values())


def generate(roles: AnswerRoles, question: str, groups: list[EvidenceGroup]) -> FinalAnswer:
    """The final answer from the groups through the roles (`final_answer`)."""
    partials = [PartialAnswer(g.source_id, g.source_label, g.render(), list(g.triples)) for g in groups]
    return roles.final_answer(question, partials)


def sources_and_hubs(final: FinalAnswer, groups: list[EvidenceGroup]) -> tuple[list[Source], list[RankedHub]]:
    """The answer's `sources` and its `hubs` (the groups, with whether the answer cites them)."""
    sources = [Source(n, hid, label) for n, hid, label in final.sources]
    cited = {hid for _, hid, _ in final.sources}
    hubs = [
        RankedHub(g.source_id, g.source_label, round(g.score, 4), g.source_id in cited, len(g.triples)) for g in groups
    ]
    return sources, hubs
