"""`KGQA_EMBEDDER=auto` picks ONNX only where ONNX Runtime is installed: an ONNX export in the user cache
(written by another environment) must not make a process without onnxruntime fail."""

from __future__ import annotations

import importlib.util

import pytest

from kgqa.embeddings import get_embedder
from kgqa.embeddings.model_files import read_model_files
from kgqa.embeddings.onnx_cache import onnx_file
from kgqa.embeddings.sentence_transformer import SentenceTransformerEmbedder

MODEL = "all-MiniLM-L6-v2"


def test_auto_falls_back_to_torch_without_onnxruntime(tmp_path, monkeypatch):
    files = read_model_files(MODEL)
    assert files is not None
    export = onnx_file(tmp_path, files, "fp32")
    export.parent.mkdir(parents=True)
    export.write_bytes(b"an export from another environment")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name, *a))
    assert isinstance(get_embedder(MODEL, backend="auto", cache_dir=tmp_path), SentenceTransformerEmbedder)


@pytest.mark.skipif(importlib.util.find_spec("onnxruntime") is None, reason="onnxruntime not installed")
def test_auto_uses_an_existing_export_with_onnxruntime(tmp_path):
    from kgqa.embeddings.onnx_runtime import OnnxEmbedder

    files = read_model_files(MODEL)
    export = onnx_file(tmp_path, files, "fp32")
    export.parent.mkdir(parents=True)
    export.write_bytes(b"not loaded until the first embed")
    assert isinstance(get_embedder(MODEL, backend="auto", cache_dir=tmp_path), OnnxEmbedder)
