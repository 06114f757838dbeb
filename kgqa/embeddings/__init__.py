"""Embedding models behind one small protocol, with a registry by name."""

from __future__ import annotations

from kgqa.embeddings.base import Embedder
from kgqa.errors import ConfigError


def get_embedder(name: str, batch_size: int = 64) -> Embedder:
    """The embedder registered under `name` (a sentence-transformers model name or path)."""
    from kgqa.embeddings.sentence_transformer import SentenceTransformerEmbedder

    if not name:
        raise ConfigError("an embedding model name is required")
    return SentenceTransformerEmbedder(name, batch_size=batch_size)


__all__ = ["Embedder", "get_embedder"]
