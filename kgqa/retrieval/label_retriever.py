"""The shared base of the seed-paper retrievers (DiFaR, SimGRAG, CoE): the workspace's dependencies, the
label index of the retriever's parts (opened on first use) and its integer parameters (`--param KEY=VALUE`)."""

from __future__ import annotations

from typing import Any, ClassVar

from kgqa.config import RetrievalParams
from kgqa.embeddings.base import Embedder
from kgqa.errors import ConfigError
from kgqa.llm.base import AnswerRoles
from kgqa.retrieval.base import BaseRetriever
from kgqa.retrieval.graph_facts import GraphFacts
from kgqa.retrieval.label_search import LabelSearch
from kgqa.retrieval.registry import index_parts


class LabelIndexRetriever(BaseRetriever):
    """A retriever over the label index. `defaults`: its integer parameters and their defaults."""

    defaults: ClassVar[dict[str, int]] = {}
    title: ClassVar[str] = ""  # the system's name in messages ("SimGRAG")

    def __init__(
        self,
        store: Any,
        vstore: Any,
        embedder: Embedder,
        roles: AnswerRoles,
        params: RetrievalParams | None = None,
        facts: GraphFacts | None = None,
    ) -> None:
        self.store, self.embedder, self.roles = store, embedder, roles
        self.params = params or RetrievalParams()
        self._search: LabelSearch | None = None

    @property
    def search(self) -> LabelSearch:
        """The label index (checked on first use)."""
        if self._search is None:
            self._search = LabelSearch(self.store, self.embedder, self.name, index_parts(self.name))
        return self._search

    def settings(self) -> dict[str, int]:
        """The integer parameters: `--param` values over `defaults`; ConfigError for one below 1."""
        cfg = {key: int(self.params.extra.get(key, default)) for key, default in self.defaults.items()}
        if cfg and min(cfg.values()) < 1:
            raise ConfigError(f"{self.title or self.name} parameters must be >= 1, got {cfg}")
        return cfg
