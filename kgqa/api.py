"""The library's front door: one `Workspace` per database, used by the CLI and by Python code."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.embeddings import get_embedder
from kgqa.embeddings.base import Embedder
from kgqa.graph.reader import GraphStats, graph_stats
from kgqa.graph.store import GraphStore, stderr_tracer
from kgqa.graph.writer import LoadReport, load_file
from kgqa.indexing.builder import BuildReport, build_index
from kgqa.indexing.metadata import IndexInfo, check_compatible, read_info
from kgqa.llm.registry import get_roles
from kgqa.progress import ProgressFn, no_progress
from kgqa.retrieval.base import Answer
from kgqa.retrieval.registry import get_retriever
from kgqa.vectorstores.base import IndexCounts
from kgqa.vectorstores.kuzu_store import KuzuHubVectorStore


@dataclass(frozen=True)
class IndexStatus:
    """The index as stored: metadata, counts and whether the ANN index exists."""

    info: IndexInfo | None
    counts: IndexCounts
    ann_index: bool


class Workspace:
    """A HubLink database: graph, index and question answering."""

    def __init__(self, settings: Settings, *, create: bool = False, read_only: bool = False) -> None:
        self.settings = settings
        tracer = stderr_tracer if settings.trace else None
        self.store = GraphStore(settings.db_path, create=create, read_only=read_only, tracer=tracer)
        self.vstore = KuzuHubVectorStore(self.store)
        self._embedder: Embedder | None = None

    @classmethod
    def init(cls, settings: Settings) -> "Workspace":
        """Create the database (idempotent: an existing one is opened and migrated)."""
        return cls(settings, create=True)

    @property
    def embedder(self) -> Embedder:
        """The embedding model (loaded on first use)."""
        if self._embedder is None:
            self._embedder = get_embedder(self.settings.embedding_model, self.settings.embedding_batch_size)
        return self._embedder

    def load(self, path: str | Path, fmt: str | None = None, on_progress: ProgressFn = no_progress) -> LoadReport:
        """Load a file of triples into the graph (atomic, idempotent)."""
        return load_file(self.store, path, fmt, on_progress=on_progress)

    def stats(self) -> GraphStats:
        """Graph statistics."""
        return graph_stats(self.store)

    def build_index(self, params: IndexParams, *, rebuild: bool = False,
                    on_progress: ProgressFn = no_progress) -> BuildReport:
        """Build or update the HubLink index."""
        return build_index(self.store, self.vstore, self.embedder, params, rebuild=rebuild,
                           on_progress=on_progress)

    def index_status(self) -> IndexStatus:
        """The stored index's metadata and size."""
        info = read_info(self.store)
        if info is None or not self.vstore.ready():
            return IndexStatus(info, IndexCounts(0, 0, 0, 0), False)
        self.vstore.dim = info.dim
        return IndexStatus(info, self.vstore.counts(), self.vstore.has_ann_index())

    def ask(self, question: str, params: RetrievalParams | None = None, *, llm: str = "offline",
            retriever: str = "hublink", **overrides: Any) -> Answer:
        """Answer a question from the graph, with sources and supporting triples."""
        info = check_compatible(read_info(self.store), self.settings.embedding_model)
        self.vstore.dim = info.dim
        params = (params or RetrievalParams()).with_overrides(**overrides)
        r = get_retriever(retriever, store=self.store, vstore=self.vstore, embedder=self.embedder,
                          roles=get_roles(llm), params=params)
        return r.retrieve(question)

    def close(self) -> None:
        """Release the database."""
        self.store.close()

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
