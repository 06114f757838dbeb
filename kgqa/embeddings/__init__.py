"""Embedding models behind one small protocol, with one place that picks the backend.

Backends: "torch" (sentence-transformers) and "onnx" (ONNX Runtime, no torch at query time; fp32 gives
the torch vectors, "onnx-int8" is a per-channel int8 variant, its own vector space). For `get_embedder`,
"auto" uses ONNX fp32 for a model it supports when its ONNX file is cached or can be exported here, and
torch otherwise. A workspace resolves "auto" against its index first (`backend_for_index`): questions
and updates of an index built with the int8 variant use that variant."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

from kgqa.embeddings.base import Embedder
from kgqa.errors import ConfigError

if TYPE_CHECKING:
    from kgqa.config import Settings

BACKENDS = ("auto", "onnx", "onnx-int8", "torch")
#: The vector space name suffix of the int8 variant (after the model's name and "+").
INT8_SPACE = "onnx-int8-pc"


def check_backend(backend: str) -> str:
    """`backend` when it is a known KGQA_EMBEDDER value, else ConfigError listing them."""
    if backend not in BACKENDS:
        raise ConfigError(f"unknown embedder backend '{backend}' (KGQA_EMBEDDER); known: {', '.join(BACKENDS)}")
    return backend


def get_embedder(name: str, batch_size: int = 64, backend: str = "auto", cache_dir: Path | None = None) -> Embedder:
    """The embedder for model `name` (a sentence-transformers model name or path) on `backend`.
    Nothing is loaded until the first `embed` (or `load`)."""
    if not name:
        raise ConfigError("an embedding model name is required")
    check_backend(backend)
    if backend != "torch":
        from kgqa.embeddings.model_files import read_model_files
        from kgqa.embeddings.onnx_cache import onnx_file
        from kgqa.embeddings.onnx_export import can_export

        files = read_model_files(name)
        if files is None and backend != "auto":
            raise ConfigError(
                f"the ONNX embedder supports local mean-pooling sentence-transformers models with a "
                f"tokenizer.json; '{name}' is not one (use KGQA_EMBEDDER=torch)"
            )
        if files is not None:
            cache = cache_dir or default_cache_dir()
            runtime = importlib.util.find_spec("onnxruntime") is not None  # auto: torch when it is missing
            if backend != "auto" or runtime and (onnx_file(cache, files, "fp32").is_file() or can_export()):
                from kgqa.embeddings.onnx_runtime import OnnxEmbedder

                variant = "int8" if backend == "onnx-int8" else "fp32"
                return OnnxEmbedder(name, files, cache, variant=variant, batch_size=batch_size)
    if importlib.util.find_spec("sentence_transformers") is None:
        from kgqa.errors import OnnxModelMissingError

        raise OnnxModelMissingError(
            f"neither an ONNX export of '{name}' nor torch and sentence-transformers are "
            "available; run `kgqa model export` where torch is installed"
        )
    from kgqa.embeddings.sentence_transformer import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(name, batch_size=batch_size)


def backend_for_index(setting: str, model: str, index_model: str | None) -> str:
    """The backend to embed with for an index whose vectors are in space `index_model` (None: no index
    yet). A setting other than "auto" is kept. With "auto": the int8 variant for an index built with it,
    else "auto" as `get_embedder` reads it (ONNX fp32 or torch: the torch model's space). New indexes
    are fp32: int8 gave the fp32 ORKG dev metrics but changed a demo answer (docs/embedders.md)."""
    check_backend(setting)
    if setting != "auto":
        return setting
    from kgqa.embeddings.model_files import canonical_name

    return "onnx-int8" if index_model == f"{canonical_name(model)}+{INT8_SPACE}" else "auto"


def embedder_for_index(settings: Settings, index_model: str | None) -> Embedder:
    """The embedder of `settings` (model, batch size, KGQA_EMBEDDER, cache) for an index whose vectors
    are in space `index_model` (None: no index yet); see `backend_for_index`. Nothing is loaded yet."""
    backend = backend_for_index(settings.embedder, settings.embedding_model, index_model)
    return get_embedder(settings.embedding_model, settings.embedding_batch_size, backend, settings.cache_dir)


def default_cache_dir() -> Path:
    """The user cache for exported models ($KGQA_CACHE_DIR, else $XDG_CACHE_HOME/kgqa, else ~/.cache/kgqa)."""
    from kgqa.config import cache_dir

    return cache_dir()


__all__ = ["BACKENDS", "Embedder", "backend_for_index", "check_backend", "embedder_for_index", "get_embedder"]
