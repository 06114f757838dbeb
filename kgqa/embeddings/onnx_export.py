"""Export a sentence-transformers model's transformer to ONNX (once, with torch), and its int8 variant.

The exported graph maps (input_ids, attention_mask, token_type_ids) to the last hidden state; pooling
and normalisation run in numpy (kgqa/embeddings/onnx_runtime.py), as sentence-transformers does them."""

from __future__ import annotations

import importlib.util
import os
import warnings
from pathlib import Path

from kgqa.embeddings.model_files import ModelFiles, read_model_files
from kgqa.embeddings.onnx_cache import onnx_file, write_atomically
from kgqa.errors import ConfigError, EmbeddingError, OnnxModelMissingError

INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT = "last_hidden_state"
OPSET = 17
#: What the export needs besides onnxruntime: the model in torch, and the onnx package to write it.
EXPORT_MODULES = ("torch", "transformers", "onnx")


def can_export() -> bool:
    """Whether this environment can create an ONNX file (torch, transformers and onnx installed)."""
    return all(importlib.util.find_spec(m) is not None for m in EXPORT_MODULES)


def export_model(name: str, cache_dir: Path, variant: str = "fp32", *, force: bool = False) -> Path:
    """Export model `name` to ONNX (`variant` fp32 or int8) into the cache, unless it is there already
    (`force`: again); returns the file."""
    files = read_model_files(name)
    if files is None:
        raise ConfigError(
            f"the ONNX embedder supports local mean-pooling sentence-transformers models with a "
            f"tokenizer.json; '{name}' is not one"
        )
    return ensure_onnx(cache_dir, files, variant, force=force)


def ensure_onnx(cache_dir: Path, files: ModelFiles, variant: str = "fp32", *, force: bool = False) -> Path:
    """The cached ONNX file of `variant`, exported first when it is missing (or `force`)."""
    if variant not in ("fp32", "int8"):
        raise ConfigError(f"unknown ONNX variant '{variant}'; known: fp32, int8")
    dest = onnx_file(cache_dir, files, variant)
    if dest.is_file() and not force:
        return dest
    if variant == "int8":
        source = ensure_onnx(cache_dir, files, "fp32", force=force)
        return write_atomically(dest, lambda tmp: _quantise(source, tmp))
    if not can_export():
        missing = ", ".join(m for m in EXPORT_MODULES if importlib.util.find_spec(m) is None)
        raise OnnxModelMissingError(
            f"no ONNX export of the embedding model in {dest.parent} and this environment cannot create "
            f"one ({missing} not installed). Run `kgqa model export` once where torch is installed, with the "
            "same KGQA_CACHE_DIR (or copy that folder here), or install torch, or set KGQA_EMBEDDER=torch"
        )
    return write_atomically(dest, lambda tmp: _export(files.directory, tmp))


def _export(model_dir: Path, dest: Path) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        model = AutoModel.from_pretrained(str(model_dir)).eval()
    except Exception as exc:  # transformers raises many kinds (OSError, ValueError, ...)
        raise EmbeddingError(f"cannot load the model in {model_dir} for the ONNX export: {exc}") from exc

    class _HiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    ids = torch.ones((2, 8), dtype=torch.long)
    axes = {"0": "batch", "1": "tokens"}
    dynamic = {name: {int(k): v for k, v in axes.items()} for name in (*INPUTS, OUTPUT)}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer notes about constant Python values (mask is always given)
        torch.onnx.export(
            _HiddenState(),
            (ids, ids, torch.zeros_like(ids)),
            str(dest),
            dynamo=False,
            input_names=list(INPUTS),
            output_names=[OUTPUT],
            dynamic_axes=dynamic,
            opset_version=OPSET,
            do_constant_folding=True,
        )


def _quantise(source: Path, dest: Path) -> None:
    """Dynamic int8 quantisation of the weight matrices, one scale per output channel. Per-tensor
    scales, or quantising the attention products too (activation x activation), moved the vectors
    to a mean cosine of 0.95 to fp32 and the ORKG dev recall by 0.05; this recipe keeps a mean cosine
    of 0.99 and the dev metrics of fp32 (bench/results/embedders.md)."""
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # the quantiser logs a pre-processing hint on the root logger
    try:
        quantize_dynamic(
            str(source),
            str(dest),
            weight_type=QuantType.QInt8,
            per_channel=True,
            extra_options={"MatMulConstBOnly": True},
        )
    finally:
        root.setLevel(level)
