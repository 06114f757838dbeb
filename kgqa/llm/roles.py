"""HubLink's query-time LLM roles through any provider's `LLMClient` (spec §3–4).

Call pattern per question: one request for the components, one per hub that can contribute
(hubs whose best fact is below `min_relevance` decline without a request; at most
`max_facts_per_hub` facts each, rendered compactly, concurrently), one for the final answer and one
for the supporting triples. A reply that stays unusable after one retry makes its hub decline
(or its role fall back to the offline implementation); it never crashes the question."""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from kgqa.answering.check import mismatches
from kgqa.answering.compose import compose
from kgqa.answering.result import OPERATIONS
from kgqa.config import Settings
from kgqa.errors import LLMReplyError, TokenBudgetExceeded
from kgqa.llm.base import (
    FinalAnswer,
    HubContext,
    LLMClient,
    LLMRequest,
    PartialAnswer,
    ScoredTriple,
    TokenUsage,
)
from kgqa.llm.budget import TokenBudget
from kgqa.llm.jsonreply import ReplyFormatError, as_int_list, extract_json
from kgqa.llm.offline import OfflineRoles
from kgqa.llm.pool import map_bounded
from kgqa.llm.prompts import (
    COMPONENTS,
    FINAL_ANSWER,
    PARTIAL_ANSWER,
    SELECT_TRIPLES,
    Prompt,
)
from kgqa.llm.render import label, numbered, render_fact, render_path, render_triple

T = TypeVar("T")
_OPERATION_LINE = re.compile(r"^\s*operation:\s*([a-z]+)\s*\n", re.IGNORECASE)
_CITATION = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
MAX_COMPONENTS = 8


def _request(prompt: Prompt, **values: object) -> LLMRequest:
    return LLMRequest.single(prompt.name, prompt.system, prompt.render(**values), prompt.max_tokens)


def parse_components(text: str) -> list[str]:
    """A JSON array of strings -> distinct, non-empty components (at most MAX_COMPONENTS)."""
    value = extract_json(text, list)
    if not all(isinstance(v, str) for v in value):
        raise ReplyFormatError("expected a JSON array of strings")
    return list(dict.fromkeys(v.strip() for v in value if v.strip()))[:MAX_COMPONENTS]


def parse_partial(text: str) -> tuple[bool, str, list[int]]:
    """`{"relevant": bool, "answer": str, "facts": [int]}` -> (relevant, answer, fact numbers)."""
    value = extract_json(text, dict)
    relevant = value.get("relevant")
    if not isinstance(relevant, bool):
        raise ReplyFormatError('"relevant" must be true or false')
    answer = value.get("answer", "")
    if not isinstance(answer, str) or (relevant and not answer.strip()):
        raise ReplyFormatError('"answer" must be a non-empty string when relevant')
    return relevant, answer.strip(), as_int_list(value.get("facts", []))


def parse_numbers(text: str) -> list[int]:
    """A JSON array of numbers."""
    return as_int_list(extract_json(text, list))


def cited_numbers(text: str) -> list[int]:
    """The source numbers cited as [i] (or [i, j]) in `text`, in order of first citation."""
    out: list[int] = []
    for m in _CITATION.finditer(text):
        out += [int(n) for n in m.group(1).split(",")]
    return list(dict.fromkeys(out))


@dataclass
class LLMRoles:
    """The four query-time roles through an `LLMClient`; roles named in `offline_roles` stay offline.
    `name` is the provider's registry name (the answer's `mode`)."""

    client: LLMClient
    concurrency: int = 4
    token_budget: int | None = None
    offline_roles: tuple[str, ...] = ()
    max_facts_per_hub: int = 15
    min_relevance: float = 0.35
    max_candidates: int = 60
    name: str = "llm"
    usage: TokenUsage = field(default_factory=TokenUsage)
    offline: OfflineRoles = field(default_factory=OfflineRoles)

    def __post_init__(self) -> None:
        self.budget = TokenBudget(self.token_budget)
        self.events: Counter[str] = Counter()
        self.mismatches: list[str] = []  # where the LLM's final answer disagrees with the structured result
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings, client: LLMClient, *, name: str | None = None) -> LLMRoles:
        """Roles for one question through `client` (shared, and so its cache); `name` defaults to the
        client's provider."""
        llm = settings.llm
        return cls(
            client,
            concurrency=llm.concurrency,
            token_budget=llm.token_budget,
            offline_roles=llm.offline_roles,
            name=name or client.provider,
        )

    # -- bookkeeping ---------------------------------------------------------------------------
    def _event(self, name: str) -> None:
        with self._lock:
            self.events[name] += 1

    def _ask(self, request: LLMRequest, parse: Callable[[str], T]) -> T:
        return self.client.send_parsed(request, parse, usage=self.usage, budget=self.budget)

    @property
    def notes(self) -> list[str]:
        """What happened that the answer's reader should know (budget, unusable replies, skips)."""
        e, out = self.events, []
        if e["over_budget"]:
            out.append(
                f"token budget of {self.token_budget} per question reached: {e['over_budget']} LLM "
                "request(s) not sent (those hubs declined; other roles fell back to offline)"
            )
        if e["malformed"]:
            out.append(
                f"{e['malformed']} LLM repl{'y was' if e['malformed'] == 1 else 'ies were'} unusable "
                "after one retry (those hubs declined; other roles fell back to offline)"
            )
        out += [f"final answer vs structured result: {m}" for m in self.mismatches]
        if e["skipped"]:
            out.append(
                f"{e['skipped']} hub(s) with no fact of relevance >= {self.min_relevance} declined "
                "without an LLM request"
            )
        return out

    # -- roles ---------------------------------------------------------------------------------
    def extract_components(self, question: str) -> list[str]:
        """Components by the LLM (offline rules if that role is offline or the LLM fails)."""
        if "components" in self.offline_roles:
            return self.offline.extract_components(question)
        try:
            return self._ask(_request(COMPONENTS, question=question), parse_components)
        except (TokenBudgetExceeded, LLMReplyError) as exc:
            self._event("over_budget" if isinstance(exc, TokenBudgetExceeded) else "malformed")
            return self.offline.extract_components(question)

    def partial_answer(self, question: str, context: HubContext) -> PartialAnswer | None:
        """What this hub contributes, or None (no relevant fact, a 'not relevant' reply, an
        unusable reply, or no budget left)."""
        if "partial" in self.offline_roles:
            return self.offline.partial_answer(question, context)
        facts = self._facts(context)
        if not facts or facts[0].score < self.min_relevance:
            self._event("skipped")
            return None
        root = context.hub.root
        extra = ""
        if context.hub.via:
            via = render_path(context.hub.via[:3])
            if context.hub.via[0].subject.id == root.id:
                via = "(this source)" + via[len(label(root)) :]
            extra += f"Reached from the question's topic via: {via}\n"
        if context.link_text:
            extra += f"Linked text: {' '.join(context.link_text.split())[:1000]}\n"
        request = _request(
            PARTIAL_ANSWER,
            question=question,
            source=label(root),
            context=extra,
            facts=numbered([render_fact(st.triple, root.id) for st in facts]),
        )
        try:
            relevant, text, numbers = self._ask(request, parse_partial)
        except TokenBudgetExceeded:
            self._event("over_budget")
            return None
        except LLMReplyError:
            self._event("malformed")
            return None
        if not relevant:
            return None
        used = [facts[n - 1] for n in dict.fromkeys(numbers) if 1 <= n <= len(facts)] or facts[:1]
        return PartialAnswer(root.id, root.text, text, used, root.types)

    def _facts(self, context: HubContext) -> list[ScoredTriple]:
        """The facts shown for a hub: the retriever's relevant triples, best first; when it chose
        none, the triples of the hub's best paths (the LLM judges them). At most `max_facts_per_hub`."""
        if context.triples:
            ranked = sorted(context.triples, key=lambda st: (-st.score, st.triple.canonical))
            return ranked[: self.max_facts_per_hub]
        out: dict[str, ScoredTriple] = {}
        for path in sorted(context.hub.paths, key=lambda p: (-p.score, p.hash)):
            for t in path.triples:
                out.setdefault(t.canonical, ScoredTriple(t, path.score, context.hub.root.id))
        return list(out.values())[: self.max_facts_per_hub]

    def partial_answers(self, question: str, contexts: list[HubContext]) -> list[PartialAnswer | None]:
        """`partial_answer` for each hub, at most `concurrency` requests at a time, in order."""
        return map_bounded(lambda c: self.partial_answer(question, c), contexts, self.concurrency)

    def final_answer(self, question: str, partials: list[PartialAnswer]) -> FinalAnswer:
        """The partial answers combined by the LLM, citing sources as [i]; sources are the cited ones."""
        if not partials:
            return FinalAnswer("No answer was found in the knowledge graph.", [])
        if "final" in self.offline_roles:
            return self.offline.final_answer(question, partials)
        lines = [f"[{i}] {p.hub_label[:150]}: {p.text}" for i, p in enumerate(partials, start=1)]
        _, structured = compose(question, partials)
        result = structured.as_dict()
        request = _request(
            FINAL_ANSWER,
            question=question,
            operation=result["operation"],
            result=json.dumps(result, ensure_ascii=False)[:2000],
            partials="\n".join(lines),
        )

        def parse(text: str) -> str:
            if not text.strip():
                raise ReplyFormatError("the reply is empty")
            return text.strip()

        try:
            text = self._ask(request, parse)
        except (TokenBudgetExceeded, LLMReplyError) as exc:
            self._event("over_budget" if isinstance(exc, TokenBudgetExceeded) else "malformed")
            return self.offline.final_answer(question, partials)
        override = _OPERATION_LINE.match(text)
        if override and override.group(1).lower() in OPERATIONS and override.group(1).lower() != result["operation"]:
            detected, op = result["operation"], override.group(1).lower()
            result = compose(question, partials, op)[1].as_dict()
            with self._lock:
                self.mismatches.append(f"operation {op} named by the LLM instead of the detected {detected}")
        text = _OPERATION_LINE.sub("", text, count=1).strip() or text
        cited = [n for n in cited_numbers(text) if 1 <= n <= len(partials)]
        with self._lock:
            self.mismatches += mismatches(text, result)
        return FinalAnswer(
            text, [(n, partials[n - 1].hub_id, partials[n - 1].hub_label) for n in sorted(cited)], result
        )

    def select_triples(
        self, question: str, answer: FinalAnswer, partials: list[PartialAnswer], candidates: list[ScoredTriple]
    ) -> list[ScoredTriple]:
        """The candidates the LLM says support the answer, most relevant first. Candidates from
        cited hubs come first in the prompt; at most `max_candidates` are shown."""
        if "triples" in self.offline_roles:
            return self.offline.select_triples(question, answer, partials, candidates)
        cited = {hub_id for _, hub_id, _ in answer.sources}
        unique: dict[str, ScoredTriple] = {}
        for st in candidates:
            unique.setdefault(st.triple.canonical, st)
        shown = sorted(unique.values(), key=lambda st: (st.hub_id not in cited, -st.score))[: self.max_candidates]
        if len(shown) <= 1:
            return shown
        request = _request(
            SELECT_TRIPLES,
            question=question,
            answer=answer.text[:1500],
            triples=numbered([render_triple(st.triple) for st in shown]),
        )
        try:
            numbers = self._ask(request, parse_numbers)
        except (TokenBudgetExceeded, LLMReplyError) as exc:
            self._event("over_budget" if isinstance(exc, TokenBudgetExceeded) else "malformed")
            return self.offline.select_triples(question, answer, partials, candidates)
        chosen = [shown[n - 1] for n in dict.fromkeys(numbers) if 1 <= n <= len(shown)]
        return chosen or [st for st in shown if st.hub_id in cited]
