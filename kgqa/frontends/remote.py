"""Questions of a SQL or Cypher front end sent to a running `kgqa serve` for the same database (the
service holds the graph and the model; this process only speaks HTTP)."""

from __future__ import annotations

from typing import Any

from kgqa.config import RetrievalParams
from kgqa.frontends.service import QuestionService
from kgqa.retrieval.base import Answer
from kgqa.service.client import ServiceClient, answer_from_reply


def _no_workspace() -> Any:
    raise RuntimeError("a service-backed front end opens no workspace")


def request_options(params: RetrievalParams, llm: str, retriever: str) -> dict[str, Any]:
    """The `POST /v1/ask` options for these retrieval parameters."""
    return {"strategy": params.strategy, "topic_entity": params.topic_entity, "hubs": params.hubs_to_keep,
            "paths_per_hub": params.paths_per_hub, "diversity_penalty": params.diversity_penalty,
            "alpha": params.path_weight_alpha, "max_level": params.max_retrieval_level,
            "components": params.use_components, "triple_filter": params.filter_output_triples,
            "scoring": params.scoring, "llm": llm, "retriever": retriever, "params": dict(params.extra)}


class ServiceQuestions(QuestionService):
    """A QuestionService whose questions the running service answers."""

    def __init__(self, client: ServiceClient, params: RetrievalParams | None = None, *,
                 llm: str = "offline", retriever: str = "hublink") -> None:
        super().__init__(_no_workspace, params, llm=llm, retriever=retriever)
        self.client = client

    def _ask(self, question: str, params: RetrievalParams) -> Answer:
        return answer_from_reply(self.client.ask(question, request_options(params, self.llm, self.retriever)))

    def close(self) -> None:
        """Nothing to close: the service keeps the database."""
