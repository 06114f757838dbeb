"""sentence-transformers models, loaded offline; all-MiniLM-L6-v2 comes from the packaged copy."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from kgqa.embeddings.base import SMALL_BATCH
from kgqa.embeddings.memo import TextMemo
from kgqa.embeddings.model_files import canonical_name, model_location
from kgqa.errors import EmbeddingError


class SentenceTransformerEmbedder:
    """A sentence-transformers model, loaded once on first use, run on the CPU."""

    backend = "torch"
    label = "torch-fp32"  # backend and precision, as recorded in the index metadata

    def __init__(self, name: str, batch_size: int = 64) -> None:
        self.name = canonical_name(name)
        self.batch_size = batch_size
        self._model = None
        self._memo = TextMemo(self._compute)

    def _load(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            try:
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.set_verbosity_error()
                hf_logging.disable_progress_bar()

                self._model = SentenceTransformer(model_location(self.name), device="cpu")
            except Exception as exc:  # the library raises many kinds (OSError, ValueError, ...)
                raise EmbeddingError(f"cannot load embedding model '{self.name}': {exc}") from exc
        return self._model

    @property
    def dim(self) -> int:
        """The model's output dimension."""
        model = self._load()
        get = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(get())

    def load(self) -> None:
        """Load the model now."""
        self._load()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts (normalised); repeated texts in this process are served from memory."""
        return self._memo.embed(texts, lambda: self.dim)

    def forget(self) -> None:
        """Drop the vectors kept of texts embedded before."""
        self._memo.clear()

    def _compute(self, texts: list[str]) -> np.ndarray:
        with _threads_for(len(texts)):
            return self._load().encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )


@contextmanager
def _threads_for(n_texts: int) -> Iterator[None]:
    """Run small batches single-threaded; leave large ones (index builds) to torch's default."""
    if n_texts > SMALL_BATCH:
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)
