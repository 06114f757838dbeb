"""Per-process memory of embedded texts, shared by the embedder backends."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np


class TextMemo:
    """Embeds only texts not seen before in this process; bounded (cleared when it grows too large)."""

    def __init__(self, compute: Callable[[list[str]], np.ndarray], limit: int = 50_000) -> None:
        self._compute = compute
        self._limit = limit
        self._vectors: dict[str, np.ndarray] = {}

    def embed(self, texts: Sequence[str], dim: Callable[[], int]) -> np.ndarray:
        """Vectors for `texts` (rows in order), computing the missing ones in one call."""
        if not texts:
            return np.zeros((0, dim()), dtype=np.float32)
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            if len(self._vectors) + len(missing) > self._limit:
                self._vectors.clear()
                missing = list(dict.fromkeys(texts))
            for t, v in zip(missing, self._compute(missing).astype(np.float32, copy=False)):
                self._vectors[t] = v
        return np.stack([self._vectors[t] for t in texts])

    def clear(self) -> None:
        """Forget every text."""
        self._vectors = {}
