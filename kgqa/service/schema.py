"""Request bodies of the service (pydantic): every `kgqa ask` option as a field, validated with the
bounds `RetrievalParams` enforces (docs/reliability.md#limits), so a bad field is a 422 that names it.
Unknown fields are refused, and types are strict: `"3"` or `true` is not a number."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kgqa.config import STRATEGIES
from kgqa.llm.registry import PROVIDERS
from kgqa.retrieval.base import MAX_QUESTION_CHARS
from kgqa.retrieval.options import AskOptions
from kgqa.retrieval.registry import RETRIEVERS

# The choices come from the registries, so a new retriever or provider is accepted here at once.
Strategy = Literal[STRATEGIES]  # type: ignore[valid-type]
Scoring = Literal["coverage", "thesis"]
if TYPE_CHECKING:  # the choices are known at run time only: a type checker sees plain strings
    Llm = str
    Retriever = str
else:
    Llm = Literal[tuple(sorted(PROVIDERS))]
    Retriever = Literal[tuple(sorted(RETRIEVERS))]


class AskRequest(BaseModel):
    """`POST /v1/ask` and `POST /v1/retrieve`: a question and the `kgqa ask` options."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {"question": "Which papers were published at ICSA in 2019?", "topic_entity": "R659055", "hubs": 30}
            ]
        },
    )

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS, description="The question.")
    strategy: Strategy = Field("traversal", description="traversal (from the topic entity) or direct (global ANN).")
    topic_entity: str | None = Field(
        None, min_length=1, description="Entry point of the traversal: an id, or a label that names one entity."
    )
    hubs: int | None = Field(None, ge=1, le=1_000, description="Hubs to keep (default 30).")
    paths_per_hub: int | None = Field(None, ge=1, le=1_000, description="Paths per hub (default 10).")
    diversity_penalty: float | None = Field(None, ge=0.0, le=1.0, description="Default 0.05.")
    alpha: float | None = Field(None, ge=0.0, le=100.0, description="Path weight α (default 5).")
    max_level: int | None = Field(None, ge=1, le=10, description="Traversal levels (default 1).")
    components: bool = Field(True, description="false: search with the question embedding only.")
    triple_filter: bool = Field(True, description="false: return all triples of the kept paths.")
    scoring: Scoring | None = Field(None, description="coverage (default) or thesis.")
    llm: Llm = Field("offline", description="offline: no LLM, 0 tokens; anthropic: the LLM roles.")
    token_budget: int | None = Field(
        None, ge=1, le=100_000_000, description="At most this many LLM tokens for this question."
    )
    retriever: Retriever = Field("hublink", description="hublink, or a seed-paper retriever.")
    params: dict[str, Any] = Field(default_factory=dict, description='Retriever parameters, e.g. {"top_n": 150}.')
    max_triples: int | None = Field(
        None, ge=1, le=10_000, description="Supporting triples returned at most (default 50)."
    )
    uniform_hops: bool = Field(False, description="Traversal: one hop per level (max_level levels, max_level hops).")

    def options(self) -> AskOptions:
        """The library's form of these options."""
        return AskOptions(**self.model_dump(exclude={"question"}))
