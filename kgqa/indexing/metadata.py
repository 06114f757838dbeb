"""Index metadata (parameters, embedding model and dimension, counts), stored and checked on open."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from kgqa.config import IndexParams
from kgqa.errors import ConfigError, HubIndexError, IndexMismatchError, IndexMissingError

META_KEY = "hub_index"
#: The path cap of an index whose metadata does not record one (built when the default was 20,000).
LEGACY_PATH_CAP = 20_000


class MetaStore(Protocol):
    """Where an index keeps its metadata: the HubVector store (Kùzu's KgqaMeta, Postgres's kgqa.meta)."""

    def meta_get(self, key: str) -> Any:
        """A metadata value (decoded JSON) or None."""
        ...

    def meta_set(self, key: str, value: Any) -> None:
        """Store a metadata value as JSON."""
        ...


@dataclass(frozen=True)
class IndexInfo:
    """What the stored index was built with."""

    embedding_model: str
    dim: int
    params: dict[str, Any]
    status: str
    stats: dict[str, Any]
    embedder: str | None = None  # backend and precision that wrote it ("torch-fp32", "onnx-fp32"); None: torch


def read_info(store: MetaStore) -> IndexInfo | None:
    """The stored index metadata, or None when no index was ever built."""
    meta = store.meta_get(META_KEY)
    if not meta:
        return None
    return IndexInfo(
        meta["embedding_model"],
        int(meta["dim"]),
        meta.get("params", {}),
        meta.get("status", "unknown"),
        meta.get("stats", {}),
        meta.get("embedder"),
    )


def write_info(store: MetaStore, info: IndexInfo) -> None:
    """Store the index metadata."""
    store.meta_set(
        META_KEY,
        {
            "embedding_model": info.embedding_model,
            "dim": info.dim,
            "params": info.params,
            "status": info.status,
            "stats": info.stats,
            "embedder": info.embedder or "torch-fp32",
        },
    )


def embedder_labels(info: IndexInfo | None, embedder: Any) -> str:
    """The backends that wrote an index's vectors once `embedder` has written to it: its own label
    plus those already recorded (an index from before labels were recorded was written by torch)."""
    labels = {getattr(embedder, "label", "torch-fp32")}
    if info is not None:
        labels.update((info.embedder or "torch-fp32").split(","))
    return ",".join(sorted(labels))


def check_compatible(info: IndexInfo | None, model: str, dim: int | None = None) -> IndexInfo:
    """The stored index, if it was built with this embedding model (and dimension); else an error."""
    if info is None:
        raise IndexMissingError("no HubLink index yet; run `kgqa index build` first")
    if info.embedding_model != model:
        raise IndexMismatchError(
            f"the index was built with embedding model '{info.embedding_model}' (dimension {info.dim}) "
            f"but the current model is '{model}'{'' if dim is None else f' (dimension {dim})'}; "
            "use the same model or rebuild with `kgqa index build --rebuild`"
        )
    if dim is not None and dim != info.dim:
        raise IndexMismatchError(
            f"the index has dimension {info.dim} but the model '{model}' "
            f"produces dimension {dim}; rebuild with `kgqa index build --rebuild`"
        )
    if info.status not in ("complete", "building"):
        raise HubIndexError(f"the index is in state '{info.status}'")
    return info


def stored_params(info: IndexInfo, *, hubs_per_batch: int | None = None) -> IndexParams:
    """The index parameters the stored index was built with (its fingerprint, and the path cap kept with
    its last build's figures), so that an update need not repeat them and keeps a super-node's choice of
    paths; `hubs_per_batch` is not part of the fingerprint and may be given."""
    p = info.params
    try:
        params = IndexParams(
            hub_types=tuple(p.get("hub_types") or ()),
            min_out_degree=p.get("min_out_degree"),
            criteria_mode=p.get("criteria_mode", "any"),
            start_ids=tuple(p.get("start_ids") or ()),
            max_path_length=p.get("max_path_length"),
            max_indexing_depth=p.get("max_indexing_depth", 10),
            uniform_hop_count=bool(p.get("uniform_hop_count", False)),
            boundary_triples=bool(p.get("boundary_triples", True)),
            max_paths_per_hub=info.stats.get("max_paths_per_hub", LEGACY_PATH_CAP),
        )
    except ConfigError as exc:
        raise HubIndexError(
            f"the stored index parameters are unusable ({exc}); rebuild with `kgqa index build --rebuild`"
        ) from None
    return params if hubs_per_batch is None else replace(params, hubs_per_batch=hubs_per_batch)
