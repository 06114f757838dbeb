"""Whether the index a retriever needs is there: the parts its registry entry lists (the hub index for
HubLink, label-index parts for DiFaR, SimGRAG and Chain of Explorations). Checked before any question
is answered."""

from __future__ import annotations

from kgqa.errors import HubIndexError
from kgqa.graph.store import GraphStore
from kgqa.indexing.label_index import check_ready
from kgqa.indexing.metadata import IndexInfo, check_compatible, read_info
from kgqa.indexing.parts import HUB_INDEX, label_parts
from kgqa.vectorstores.base import HubVectorStore


def require_index(
    store: GraphStore, vstore: HubVectorStore, embedding_model: str, retriever: str, parts: tuple[str, ...]
) -> IndexInfo | None:
    """IndexMissingError (exit 5) or a mismatch error unless the index `parts` that `retriever` reads
    are built with this model; returns the hub index's metadata when the hub index is one of them."""
    info = check_compatible(read_info(vstore), embedding_model) if HUB_INDEX in parts else None
    if info is not None and info.status != "complete" and vstore.name == "kuzu" and not vstore.has_ann_index():
        # Kùzu's vector search needs the HNSW index, made at the end of a build: say so, not its binder error
        raise HubIndexError(
            f"the HubLink index is not complete (status '{info.status}': a build or update was interrupted or "
            "failed) and cannot answer yet; finish it with `kgqa index update` (or start over with "
            "`kgqa index build --rebuild`)"
        )
    labels = label_parts(parts)
    if labels:
        check_ready(store, embedding_model, labels, retriever)
    return info
