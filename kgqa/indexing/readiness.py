"""Whether the index a retriever needs is there: the hub index for HubLink, the label-index parts
for DiFaR, SimGRAG and Chain of Explorations. Checked before any question is answered."""

from __future__ import annotations

from kgqa.graph.store import GraphStore
from kgqa.indexing.label_index import RETRIEVER_PARTS, check_ready
from kgqa.indexing.metadata import IndexInfo, check_compatible, read_info
from kgqa.vectorstores.base import HubVectorStore


def require_index(store: GraphStore, vstore: HubVectorStore, embedding_model: str, retriever: str) -> IndexInfo | None:
    """IndexMissingError (exit 5) or a mismatch error unless `retriever`'s index is built with this
    model; returns the hub index's metadata for HubLink."""
    if retriever == "hublink":
        return check_compatible(read_info(vstore), embedding_model)
    if retriever in RETRIEVER_PARTS:
        check_ready(store, embedding_model, RETRIEVER_PARTS[retriever], retriever)
    return None
