"""The retriever protocol and its result; `BaseRetriever.retrieve` is the shared template method."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from kgqa.errors import InputError
from kgqa.types import RankedHub, Source

MAX_QUESTION_CHARS = 4000
#: C0 control characters and DEL, but tab, newline and carriage return (a pasted question may hold them).
_QUESTION_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass
class Answer:
    """What a retriever returns for one question."""

    question: str
    answer: str
    sources: list[Source]                   # what the answer's [n] citations refer to
    triples: list[str]                      # canonical triple strings, most relevant first
    hubs: list[RankedHub]                   # kept hubs with scores, best first
    retriever: str = ""
    mode: str = "offline"                   # which LLM provider produced the answer
    strategy: str = ""
    topic_entity: str | None = None
    components: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    llm_tokens: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)  # a retriever's steps (SimGRAG, CoE)
    result: dict[str, Any] | None = None    # {"operation", "value", "items", "groups"} (docs/answers.md)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (the `ask --json` output)."""
        return {"question": self.question, "answer": self.answer, "sources": [s.as_dict() for s in self.sources],
                "triples": self.triples, "hubs": [h.as_dict() for h in self.hubs], "retriever": self.retriever,
                "mode": self.mode,
                "strategy": self.strategy, "topic_entity": self.topic_entity, "components": self.components,
                "timings": {k: round(v, 4) for k, v in self.timings.items()}, "llm_tokens": self.llm_tokens,
                "notes": self.notes, "result": self.result, **({"trace": self.trace} if self.trace else {})}


class BaseRetriever:
    """Validates the question, times the run and tags the result; subclasses implement `_retrieve`."""

    name = "base"

    def retrieve(self, question: str) -> Answer:
        """Answer `question` with the parameters the retriever was built with."""
        q = (question or "").strip()
        if not q:
            raise InputError("the question is empty")
        if len(q) > MAX_QUESTION_CHARS:
            raise InputError(f"the question has {len(q)} characters; the limit is {MAX_QUESTION_CHARS}")
        bad = _QUESTION_CONTROL.search(q)
        if bad:
            raise InputError(f"control character {bad.group()!r} is not allowed in the question", field="question")
        start = time.perf_counter()
        answer = self._retrieve(q)
        answer.timings["total"] = time.perf_counter() - start
        answer.retriever = self.name
        return answer

    def _retrieve(self, question: str) -> Answer:
        raise NotImplementedError
