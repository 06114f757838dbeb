"""all-MiniLM-L6-v2 (or another mean-pooling sentence-transformers model) in ONNX Runtime: no torch.

Tokenised with `tokenizers` from the model's tokenizer.json, truncated to its max_seq_length, batched
by length; the hidden states are mean-pooled over the attention mask and L2-normalised, as
sentence-transformers does, so the vectors equal the torch model's (cosine >= 0.9999, tested)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kgqa.embeddings import INT8_SPACE
from kgqa.embeddings.base import SMALL_BATCH
from kgqa.embeddings.memo import TextMemo
from kgqa.embeddings.model_files import ModelFiles, canonical_name
from kgqa.embeddings.onnx_export import INPUTS, ensure_onnx
from kgqa.errors import EmbeddingError

#: The vector space of each quantised variant, as the index metadata names it (after the model's name).
#: "onnx-int8-pc": per-channel int8; the earlier per-tensor recipe's "onnx-int8" indexes need a rebuild.
SPACES = {"int8": INT8_SPACE}


def cpu_count() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class OnnxEmbedder:
    """An ONNX Runtime session of a sentence-transformers model; fp32 or dynamic int8."""

    backend = "onnx"

    def __init__(
        self,
        name: str,
        files: ModelFiles,
        cache_dir: Path,
        *,
        variant: str = "fp32",
        batch_size: int = 64,
        threads: int | None = None,
    ) -> None:
        self.variant = variant
        # fp32 gives the torch model's vectors, so an index either wrote can be queried by the other;
        # int8 vectors differ a little, so they are another embedder as far as an index is concerned
        self.name = canonical_name(name) if variant == "fp32" else f"{canonical_name(name)}+{SPACES[variant]}"
        self.files = files
        self.cache_dir = cache_dir
        self.batch_size = batch_size
        self.threads = threads or cpu_count()
        self._tokenizer: Any = None
        self._sessions: dict[int, Any] = {}
        self._memo = TextMemo(self._compute)

    @property
    def label(self) -> str:
        """Backend and precision, as recorded in the index metadata ("onnx-fp32", "onnx-int8")."""
        return f"onnx-{self.variant}"

    @property
    def dim(self) -> int:
        """The output dimension (from the pooling config; nothing is loaded)."""
        return self.files.dim

    def model_path(self) -> Path:
        """The cached ONNX file (exported now if missing and torch is present)."""
        return ensure_onnx(self.cache_dir, self.files, self.variant)

    def load(self) -> None:
        """Load the tokenizer and the single-threaded session now (exporting the model if needed)."""
        self._session(1)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts (normalised); repeated texts in this process are served from memory."""
        return self._memo.embed(texts, lambda: self.dim)

    def forget(self) -> None:
        """Drop the vectors kept of texts embedded before."""
        self._memo.clear()

    def _compute(self, texts: list[str]) -> np.ndarray:
        session = self._session(1 if len(texts) <= SMALL_BATCH else self.threads)
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            out[chunk] = self._run(session, [encodings[i] for i in chunk])
        return out

    def _run(self, session: Any, encodings: list[Any]) -> np.ndarray:
        width = max(len(e.ids) for e in encodings)
        ids = np.full((len(encodings), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        types = np.zeros((len(encodings), width), dtype=np.int64)
        for row, e in enumerate(encodings):
            n = len(e.ids)
            ids[row, :n], mask[row, :n], types[row, :n] = e.ids, 1, e.type_ids
        try:
            hidden = session.run(None, dict(zip(INPUTS, (ids, mask, types))))[0]
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbeddingError(f"the ONNX embedder failed: {exc}") from exc
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)

    def _session(self, threads: int) -> Any:
        if threads not in self._sessions:
            path = self.model_path()
            if self._tokenizer is None:
                self._tokenizer = _tokenizer(self.files)
                self._pad_id = self._tokenizer.token_to_id(self.files.pad_token) or 0
            self._sessions[threads] = _session(path, threads)
        return self._sessions[threads]


def _tokenizer(files: ModelFiles) -> Any:
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(files.tokenizer_json))
    except Exception as exc:  # tokenizers raises its own exception type
        raise EmbeddingError(f"cannot read the tokenizer {files.tokenizer_json}: {exc}") from exc
    tokenizer.no_padding()  # padding is per batch, below
    tokenizer.enable_truncation(files.max_seq_length)
    return tokenizer


def _session(path: Path, threads: int) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Worker threads sleep between operators instead of spinning: beside a build's writing thread, spinning
    # workers took the cores it needed and the embedding ran ~25 % slower (267-278 texts/s against
    # 363-365 with a 70 %-busy process beside it; the same ~410 alone; docs/scale.md, 29 Nov 2026).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types
        raise EmbeddingError(f"cannot load the ONNX model {path}: {exc} (delete it to export it again)") from exc
