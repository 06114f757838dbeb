"""What the SQL and Cypher front ends call: one workspace, fixed retrieval settings, each question
answered once per session (a query may call a UDF once per row)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kgqa.api import Workspace
from kgqa.config import RetrievalParams
from kgqa.errors import InputError, ServiceUnavailableError
from kgqa.types import Answer

if TYPE_CHECKING:
    from kgqa.service.client import ServiceClient

#: The most triples or hubs one call may ask for.
MAX_K = 10_000


def check_k(k: Any, what: str = "k") -> int:
    """`k` as a positive integer, or an InputError naming it."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise InputError(f"{what} must be an integer within [1, {MAX_K}], got {k!r}")
    return k


class QuestionService:
    """Answers questions with the workspace opened on first use (pure SQL over files needs none), or by a
    running `kgqa serve` when `client` is given; a service that cannot take a question now (busy, gone)
    leaves that question to the workspace, with a note."""

    def __init__(
        self,
        open_workspace: Callable[[], Workspace],
        params: RetrievalParams | None = None,
        *,
        llm: str = "offline",
        retriever: str = "hublink",
        client: ServiceClient | None = None,
        note: Callable[[str], None] = lambda _: None,
    ) -> None:
        self._open = open_workspace
        self.client = client
        self._note = note
        self._ws: Workspace | None = None
        self.params = params or RetrievalParams()
        self.llm, self.retriever = llm, retriever
        self._answers: dict[tuple[str, int], Answer] = {}

    @property
    def served_by(self) -> str:
        """`service` when questions go to a running `kgqa serve`, else `in-process`."""
        return "service" if self.client is not None else "in-process"

    @property
    def workspace(self) -> Workspace:
        """The workspace (opened now if needed)."""
        if self._ws is None:
            self._ws = self._open()
        return self._ws

    def answer(self, question: Any, k: int | None = None) -> Answer:
        """The answer to `question` with at least `k` supporting triples allowed (memoised)."""
        if not isinstance(question, str):
            raise InputError(f"the question must be a string, got {question!r}")
        limit = max(self.params.max_output_triples, check_k(k) if k is not None else 0)
        key = (question.strip(), limit)
        if key not in self._answers:
            params = self.params.with_overrides(max_output_triples=limit)
            self._answers[key] = self._ask(question, params)
        return self._answers[key]

    def _ask(self, question: str, params: RetrievalParams) -> Answer:
        """Answer one question: by the running service when there is one and it takes the question, else
        with this process's workspace."""
        if self.client is not None:
            from kgqa.retrieval.options import options_from_params
            from kgqa.service.client import answer_from_reply

            options = options_from_params(params, llm=self.llm, retriever=self.retriever).as_dict()
            try:
                return answer_from_reply(self.client.ask(question, options))
            except ServiceUnavailableError as exc:
                self._note(f"note: {exc}; answering in-process")
        return self.workspace.ask(question, params, llm=self.llm, retriever=self.retriever)

    def record(self, question: Any) -> dict[str, Any]:
        """The answer as one record: answer text, sources, triples, hubs, strategy, mode, seconds and
        the structured result as JSON text (docs/answers.md)."""
        a = self.answer(question)
        return {
            "question": a.question,
            "answer": a.answer,
            "sources": [s.as_dict() for s in a.sources],
            "triples": list(a.triples),
            "hubs": _hubs(a, len(a.hubs)),
            "strategy": a.strategy,
            "mode": a.mode,
            "seconds": round(float(a.timings.get("total", 0.0)), 4),
            "result": json.dumps(a.result, ensure_ascii=False) if a.result is not None else None,
        }

    def triples(self, question: Any, k: Any) -> list[dict[str, Any]]:
        """The top-k supporting triples, most relevant first, as (rank, triple)."""
        a = self.answer(question, check_k(k))
        return [{"rank": i, "triple": t} for i, t in enumerate(a.triples[:k], start=1)]

    def hubs(self, question: Any, k: Any) -> list[dict[str, Any]]:
        """The top-k ranked hubs as (rank, hub_id, label, score, cited)."""
        return _hubs(self.answer(question), check_k(k))

    def close(self) -> None:
        """Close the workspace if it was opened."""
        if self._ws is not None:
            self._ws.close()
            self._ws = None


def _hubs(a: Answer, k: int) -> list[dict[str, Any]]:
    return [
        {"rank": i, "hub_id": h.hub_id, "label": h.label, "score": float(h.score), "cited": h.cited}
        for i, h in enumerate(a.hubs[:k], start=1)
    ]
