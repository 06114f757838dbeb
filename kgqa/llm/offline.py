"""The offline, deterministic implementation of the LLM roles: no key, no tokens, same output
for the same input. Relevance comes from the embedding similarities the retriever computed."""

from __future__ import annotations

from dataclasses import dataclass, field

from kgqa import deadline
from kgqa.answering.compose import compose
from kgqa.answering.result import AnswerResult
from kgqa.llm.base import FinalAnswer, HubContext, LLMClient, PartialAnswer, ScoredTriple, TokenUsage
from kgqa.llm.budget import TokenBudget
from kgqa.question.components import extract_components
from kgqa.retrieval.hublink.ranking import SCORE_DECIMALS


def _by_score(st: ScoredTriple) -> tuple[float, str]:
    """Best first, scores compared to SCORE_DECIMALS (the precision every stored vector type shares), ties
    by the triple's text: the same facts in the same order from either store, float16 or float32."""
    return (-round(st.score, SCORE_DECIMALS), st.triple.canonical)


@dataclass
class OfflineRoles:
    """Rule- and similarity-based answers.

    For the question and for each of its components, a hub contributes its best-matching triples
    (relevance at least `min_relevance` and within `margin` of that component's best), at most
    `per_hub` in all; it declines when no triple reaches `min_relevance` for any of them."""

    min_relevance: float = 0.5
    margin: float = 0.15
    per_hub: int = 25
    name: str = "offline"
    usage: TokenUsage = field(default_factory=TokenUsage)
    client: LLMClient | None = None  # no LLM
    budget: TokenBudget = field(default_factory=lambda: TokenBudget(0))  # nothing is ever sent

    @property
    def notes(self) -> list[str]:
        """Nothing to report: no requests, no budget, no unusable replies."""
        return []

    def extract_components(self, question: str) -> list[str]:
        """Rule-based components (quoted strings, numbers, capitalised spans, noun phrases)."""
        return extract_components(question)

    def partial_answer(self, question: str, context: HubContext) -> PartialAnswer | None:
        """The hub's best-matching facts as one sentence, or None if none is relevant enough."""
        ranked = sorted(context.triples, key=_by_score)
        if not ranked or ranked[0].score < self.min_relevance:
            return None
        picked: dict[str, ScoredTriple] = {}
        if not any(st.per_query for st in ranked):  # scores already say which facts the hub offers
            picked = {st.triple.canonical: st for st in ranked if st.score >= ranked[0].score - self.margin}
        for qi in range(max(len(st.per_query) for st in ranked)):

            def rel(st: ScoredTriple, qi: int = qi) -> float:
                return st.per_query[qi] if qi < len(st.per_query) else 0.0

            best = max(rel(st) for st in ranked)
            if best < self.min_relevance:
                continue
            for st in ranked:
                if rel(st) >= best - self.margin and rel(st) >= self.min_relevance:
                    picked.setdefault(st.triple.canonical, st)
        chosen = sorted(picked.values(), key=_by_score)[: self.per_hub]
        label = context.hub.root.text
        facts = "; ".join(
            f"{st.triple.subject.text} — {st.triple.predicate}: {st.triple.object.text}"
            if st.triple.subject.id != context.hub.root.id
            else f"{st.triple.predicate}: {st.triple.object.text}"
            for st in chosen
        )
        return PartialAnswer(context.hub.root.id, label, f"{label}: {facts}", chosen, context.hub.root.types)

    def partial_answers(self, question: str, contexts: list[HubContext]) -> list[PartialAnswer | None]:
        """`partial_answer` for each hub, in order."""
        return [self.partial_answer(question, c) for c in deadline.checked(contexts, "answer composition", every=1)]

    def final_answer(self, question: str, partials: list[PartialAnswer]) -> FinalAnswer:
        """The operation the question asks for (count, rank, group, ...) over the partial answers'
        facts, as cited sentences with the structured result (kgqa/answering). Sources are numbered
        in hub-rank order."""
        if not partials:
            return FinalAnswer("No answer was found in the knowledge graph.", [], AnswerResult("value").as_dict())
        text, result = compose(question, partials)
        sources = [(i, p.hub_id, p.hub_label) for i, p in enumerate(partials, start=1)]
        return FinalAnswer(text, sources, result.as_dict())

    def select_triples(
        self, question: str, answer: FinalAnswer, partials: list[PartialAnswer], candidates: list[ScoredTriple]
    ) -> list[ScoredTriple]:
        """The triples the partial answers used, by relevance (ties, to SCORE_DECIMALS, keep hub rank)."""
        chosen = [st for p in partials for st in p.triples]
        order = {id(st): i for i, st in enumerate(chosen)}
        return sorted(chosen, key=lambda st: (-round(st.score, SCORE_DECIMALS), order[id(st)]))
