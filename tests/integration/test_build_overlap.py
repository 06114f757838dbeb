"""The build embeds a batch's texts on a second thread while the batch before is written: a text that
two batches share is embedded once, the batches are written in order, and the index equals the one
a build of a single batch makes."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest
from index_checks import assert_consistent, checkpoint_threshold, snapshot

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings

pytestmark = pytest.mark.slow

# Three papers by one author at one venue: every batch of one hub needs texts the batch before embeds.
GRAPH = (
    "subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal\n"
    "P1,author,A1,Hubs for Graph QA,Paper,Ada Lovelace,Person,false\n"
    "P1,venue,V1,Hubs for Graph QA,Paper,ICSA,Venue,false\n"
    "P2,author,A1,Paths and Hashes,Paper,Ada Lovelace,Person,false\n"
    "P2,venue,V1,Paths and Hashes,Paper,ICSA,Venue,false\n"
    "P3,author,A1,Graphs Change,Paper,Ada Lovelace,Person,false\n"
    "P3,venue,V1,Graphs Change,Paper,ICSA,Venue,false\n"
    "A1,affiliation,O1,Ada Lovelace,Person,Analytical Society,Organisation,false\n"
)


class _Watched:
    """The real model, noting which thread asked it for which texts."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.calls = inner, inner.name, []

    @property
    def label(self) -> str:
        return self.inner.label

    @property
    def dim(self) -> int:
        return self.inner.dim

    def load(self) -> None:
        self.inner.load()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append((threading.current_thread().name, list(texts)))
        return self.inner.embed(texts)

    def forget(self) -> None:
        self.inner.forget()


def _build(tmp_path, name: str, embedder, hubs_per_batch: int):
    (tmp_path / "g.csv").write_text(GRAPH, encoding="utf-8")
    ws = Workspace.init(Settings(db_path=tmp_path / f"{name}.kuzu"), embedder=embedder)
    ws.load(tmp_path / "g.csv")
    report = ws.build_index(IndexParams(hub_types=("Paper",), hubs_per_batch=hubs_per_batch))
    return ws, report


def test_one_hub_batches_embed_each_text_once_on_the_embedding_thread(tmp_path, embedder):
    watched = _Watched(embedder)
    ws, report = _build(tmp_path, "one", watched, hubs_per_batch=1)
    whole, whole_report = _build(tmp_path, "whole", embedder, hubs_per_batch=100)
    try:
        embedded = [t for _, texts in watched.calls for t in texts]
        assert len(watched.calls) == 3  # a call per batch
        assert {thread for thread, _ in watched.calls} == {"kgqa-embed_0"}
        assert len(embedded) == len(set(embedded)) == report.texts_embedded == report.counts.texts
        assert report.texts_reused > 0  # later batches found the shared texts in flight or written
        assert "embed_wait" in report.timings
        assert snapshot(ws) == snapshot(whole)
        assert report.counts == whole_report.counts
        assert_consistent(ws)
    finally:
        ws.close()
        whole.close()


def test_the_batches_are_written_between_rare_checkpoints(tmp_path, embedder, monkeypatch):
    """While a build writes its batches Kùzu checkpoints only once the log holds an eighth of the page
    cache (each checkpoint rewrites pages whatever it carries); afterwards its default is back."""
    from kgqa.memory import KUZU_CHECKPOINT_BYTES, build_checkpoint_bytes
    from kgqa.vectorstores.kuzu_store import KuzuHubVectorStore

    seen: list[int] = []
    write = KuzuHubVectorStore.replace_hubs

    def noting(self, *args, **kwargs):
        seen.append(checkpoint_threshold(self.store))
        return write(self, *args, **kwargs)

    monkeypatch.setattr(KuzuHubVectorStore, "replace_hubs", noting)
    ws, report = _build(tmp_path, "rare", embedder, hubs_per_batch=1)
    try:
        wanted = build_checkpoint_bytes(ws.store.pool_bytes)
        assert wanted > KUZU_CHECKPOINT_BYTES
        assert seen == [wanted] * 3  # every batch
        assert checkpoint_threshold(ws.store) == KUZU_CHECKPOINT_BYTES
        assert report.counts.hubs == 3
        assert_consistent(ws)
    finally:
        ws.close()
