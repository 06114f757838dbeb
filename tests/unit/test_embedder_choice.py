"""`KGQA_EMBEDDER=auto` picks ONNX only where ONNX Runtime is installed: an ONNX export in the user cache
(written by another environment) must not make a process without onnxruntime fail. Against an index,
"auto" follows the space the index records (an index built with the int8 variant is asked with it)."""

from __future__ import annotations

import importlib.util

import pytest

from kgqa.embeddings import backend_for_index, get_embedder
from kgqa.embeddings.model_files import read_model_files
from kgqa.embeddings.onnx_cache import onnx_file
from kgqa.embeddings.sentence_transformer import SentenceTransformerEmbedder
from kgqa.errors import ConfigError

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


def test_auto_follows_the_space_an_index_records():
    # no index yet, or an fp32/torch index: fp32 as before (get_embedder's "auto")
    assert backend_for_index("auto", MODEL, None) == "auto"
    assert backend_for_index("auto", MODEL, MODEL) == "auto"
    # an index built with KGQA_EMBEDDER=onnx-int8 is asked and updated with the int8 variant
    assert backend_for_index("auto", MODEL, f"{MODEL}+onnx-int8-pc") == "onnx-int8"
    # the earlier per-tensor recipe's space is not this one: its index is refused where it is used
    assert backend_for_index("auto", MODEL, f"{MODEL}+onnx-int8") == "auto"
    # an explicit setting is kept, also against the index (the mismatch is reported where it is used)
    assert backend_for_index("torch", MODEL, f"{MODEL}+onnx-int8-pc") == "torch"
    with pytest.raises(ConfigError, match="KGQA_EMBEDDER"):
        backend_for_index("fast", MODEL, None)
