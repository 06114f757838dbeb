"""HubVector stores behind one protocol: one module per backend, registered here."""

from __future__ import annotations

from kgqa.vectorstores.base import HubRecord, HubVectorStore, IndexCounts, PathRecord, ScoredVectors, VectorHit

__all__ = ["HubRecord", "HubVectorStore", "IndexCounts", "PathRecord", "ScoredVectors", "VectorHit"]
