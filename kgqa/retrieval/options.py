"""The options of one question, as `kgqa ask` takes them and `POST /v1/ask` receives them, and their
one mapping to `RetrievalParams` (shared by the CLI, the service and the service's client).

Imports only `kgqa.config`: the CLI's client path uses it without loading the retrieval stack."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from kgqa.config import RetrievalParams


@dataclass(frozen=True)
class AskOptions:
    """What a caller may set for one question; None means the library default."""

    strategy: str = "traversal"
    topic_entity: str | None = None
    hubs: int | None = None  # hubs to keep
    paths_per_hub: int | None = None
    diversity_penalty: float | None = None
    alpha: float | None = None  # path weight α
    max_level: int | None = None  # traversal levels
    components: bool = True  # False: search with the question embedding only
    triple_filter: bool = True  # False: all triples of the kept paths
    scoring: str | None = None  # coverage | thesis
    llm: str = "offline"
    token_budget: int | None = None
    retriever: str = "hublink"
    params: dict[str, Any] = field(default_factory=dict)  # retriever parameters (--param KEY=VALUE)
    max_triples: int | None = None  # supporting triples returned at most (default 50)
    uniform_hops: bool = False  # traversal: one hop per level (RetrievalParams.uniform_hop_count)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (the request body of `POST /v1/ask`, without the question)."""
        return asdict(self)


def params_from_options(options: AskOptions, base: RetrievalParams | None = None) -> RetrievalParams:
    """The retrieval parameters these options ask for, on top of `base` (default: the thesis's)."""
    return (base or RetrievalParams()).with_overrides(
        strategy=options.strategy,
        topic_entity=options.topic_entity,
        hubs_to_keep=options.hubs,
        paths_per_hub=options.paths_per_hub,
        diversity_penalty=options.diversity_penalty,
        path_weight_alpha=options.alpha,
        max_retrieval_level=options.max_level,
        use_components=None if options.components else False,
        filter_output_triples=None if options.triple_filter else False,
        scoring=options.scoring,
        max_output_triples=options.max_triples,
        uniform_hop_count=True if options.uniform_hops else None,
        extra=dict(options.params) or None,
    )


def options_from_params(params: RetrievalParams, *, llm: str = "offline", retriever: str = "hublink") -> AskOptions:
    """The options that ask for `params` (the inverse of params_from_options for every field an option
    sets), so a session holding RetrievalParams can send its questions to `kgqa serve`."""
    return AskOptions(
        strategy=params.strategy,
        topic_entity=params.topic_entity,
        hubs=params.hubs_to_keep,
        paths_per_hub=params.paths_per_hub,
        diversity_penalty=params.diversity_penalty,
        alpha=params.path_weight_alpha,
        max_level=params.max_retrieval_level,
        components=params.use_components,
        triple_filter=params.filter_output_triples,
        scoring=params.scoring,
        llm=llm,
        retriever=retriever,
        params=dict(params.extra),
        max_triples=params.max_output_triples,
        uniform_hops=params.uniform_hop_count,
    )
