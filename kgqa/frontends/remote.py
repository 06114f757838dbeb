"""Questions of a SQL or Cypher front end sent to a running `kgqa serve` for the same database (the
service holds the graph and the model; this process only speaks HTTP)."""

from __future__ import annotations

from typing import Any

from kgqa.config import RetrievalParams
from kgqa.frontends.service import QuestionService
from kgqa.retrieval.base import Answer
from kgqa.retrieval.options import options_from_params
from kgqa.service.client import ServiceClient, answer_from_reply


def _no_workspace() -> Any:
    raise RuntimeError("a service-backed front end opens no workspace")


class ServiceQuestions(QuestionService):
    """A QuestionService whose questions the running service answers."""

    def __init__(self, client: ServiceClient, params: RetrievalParams | None = None, *,
                 llm: str = "offline", retriever: str = "hublink") -> None:
        super().__init__(_no_workspace, params, llm=llm, retriever=retriever)
        self.client = client

    def _ask(self, question: str, params: RetrievalParams) -> Answer:
        return answer_from_reply(self.client.ask(
            question, options_from_params(params, llm=self.llm, retriever=self.retriever).as_dict()))

    def close(self) -> None:
        """Nothing to close: the service keeps the database."""
