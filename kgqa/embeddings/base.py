"""The embedder protocol: texts in, L2-normalised float32 vectors out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

#: Batches up to this size run on one thread: a question and its components embed in a few
#: milliseconds, and the thread hand-off of a multi-threaded run costs more than it saves (on a busy
#: 2-core machine, torch took 0.09 s on one thread against 0.56 s on two for 3 short texts).
SMALL_BATCH = 16


class Embedder(Protocol):
    """Maps texts to unit vectors of a fixed dimension.

    `name` identifies the vector space: two embedders with the same name give the same vectors (to
    cosine >= 0.9999), so an index written by one is queried with the other. `label` says which
    backend and precision computed them ("torch-fp32", "onnx-fp32", "onnx-int8")."""

    name: str

    @property
    def label(self) -> str:
        """The backend and precision ("torch-fp32", "onnx-fp32", "onnx-int8")."""
        ...

    @property
    def dim(self) -> int:
        """The vector dimension."""
        ...

    def load(self) -> None:
        """Load the model now (otherwise it loads on the first `embed`)."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """An array of shape (len(texts), dim), rows L2-normalised, dtype float32."""
        ...

    def forget(self) -> None:
        """Drop the vectors this embedder keeps of texts it embedded (a build's last batch is written)."""
        ...
