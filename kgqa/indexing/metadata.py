"""Index metadata (parameters, embedding model and dimension, counts), stored and checked on open."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kgqa.errors import HubIndexError, IndexMismatchError, IndexMissingError
from kgqa.graph.store import GraphStore

META_KEY = "hub_index"


@dataclass(frozen=True)
class IndexInfo:
    """What the stored index was built with."""

    embedding_model: str
    dim: int
    params: dict[str, Any]
    status: str
    stats: dict[str, Any]


def read_info(store: GraphStore) -> IndexInfo | None:
    """The stored index metadata, or None when no index was ever built."""
    meta = store.meta_get(META_KEY)
    if not meta:
        return None
    return IndexInfo(meta["embedding_model"], int(meta["dim"]), meta.get("params", {}),
                     meta.get("status", "unknown"), meta.get("stats", {}))


def write_info(store: GraphStore, info: IndexInfo) -> None:
    """Store the index metadata."""
    store.meta_set(META_KEY, {"embedding_model": info.embedding_model, "dim": info.dim,
                              "params": info.params, "status": info.status, "stats": info.stats})


def check_compatible(info: IndexInfo | None, model: str, dim: int | None = None) -> IndexInfo:
    """The stored index, if it was built with this embedding model (and dimension); else an error."""
    if info is None:
        raise IndexMissingError("no HubLink index yet; run `kgqa index build` first")
    if info.embedding_model != model:
        raise IndexMismatchError(
            f"the index was built with embedding model '{info.embedding_model}' (dimension {info.dim}) "
            f"but the current model is '{model}'{'' if dim is None else f' (dimension {dim})'}; "
            "use the same model or rebuild with `kgqa index build --rebuild`")
    if dim is not None and dim != info.dim:
        raise IndexMismatchError(f"the index has dimension {info.dim} but the model '{model}' "
                                 f"produces dimension {dim}; rebuild with `kgqa index build --rebuild`")
    if info.status not in ("complete", "building"):
        raise HubIndexError(f"the index is in state '{info.status}'")
    return info
