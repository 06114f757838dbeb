"""The label index of the seed-paper retrievers (DiFaR, SimGRAG, Chain of Explorations), in Kùzu.

Three parts, each a table of unique texts with its own HNSW index (schema/labelindex/):
- `triples`: every graph triple in label form "(subject, predicate, object)" (DiFaR);
- `labels`: every entity label (SimGRAG node candidates, CoE node exploration);
- `predicates`: every predicate label (SimGRAG relation candidates, CoE relation ranking).

A text is embedded once, keyed by its hash (`kgqa.types.text_hash`, as HubLink's EmbeddedText). A build
only embeds texts that no table holds yet: identical texts already embedded by HubLink's index or by
another part (same model) are copied, not re-embedded. A part whose graph content is unchanged (same
signature) is left alone, so a second build does nothing."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from kgqa.embeddings.base import Embedder
from kgqa.errors import ConfigError, IndexMismatchError, IndexMissingError
from kgqa.graph.layout import require_triple_layout
from kgqa.graph.store import GraphStore
from kgqa.indexing.metadata import META_KEY as HUB_META_KEY
from kgqa.progress import ProgressFn, no_progress
from kgqa.types import Entity, Triple, text_hash
from kgqa.vectorstores.kuzu_store import text_table
from kgqa.vectorstores.raw import raw_vector

META_KEY = "label_index"
MIGRATIONS = "labelindex"


@dataclass(frozen=True)
class Part:
    """One table of the label index and how its named queries are called."""

    name: str  # triples | labels | predicates
    kind: str  # query-name prefix: triple | label | predicate
    table: str


PARTS: dict[str, Part] = {
    "triples": Part("triples", "triple", "kgqa_TripleText"),
    "labels": Part("labels", "label", "kgqa_LabelText"),
    "predicates": Part("predicates", "predicate", "kgqa_PredicateText"),
}


@dataclass
class PartReport:
    """What one build did to one part."""

    part: str
    texts: int = 0  # unique texts stored after the build
    links: int = 0  # triple or entity links (0 for predicates)
    embedded: int = 0  # texts embedded by the model in this build
    reused: int = 0  # texts copied from an identical text already embedded elsewhere
    removed: int = 0  # texts no longer in the graph
    unchanged: bool = False


@dataclass
class LabelIndexReport:
    """What `kgqa index build --retriever ...` did."""

    retriever: str
    parts: list[PartReport] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def nothing_to_do(self) -> bool:
        """True when every part was already up to date."""
        return all(p.unchanged for p in self.parts)


@dataclass(frozen=True)
class _Content:
    texts: dict[str, str]  # hash -> text
    links: list[dict[str, str]]  # rows for the link table (empty for predicates)
    signature: str


def read_meta(store: GraphStore) -> dict[str, Any] | None:
    """The stored label-index metadata (model, dimension, parts), or None."""
    return store.meta_get(META_KEY) or None


def check_ready(store: GraphStore, embedder_name: str, parts: tuple[str, ...], retriever: str) -> dict[str, Any]:
    """The index metadata, if every part in `parts` was built with this model; else a clear error."""
    require_triple_layout(store, retriever)
    meta = read_meta(store)
    built = (meta or {}).get("parts", {})
    missing = [p for p in parts if p not in built]
    if meta is None or missing:
        raise IndexMissingError(
            f"no {retriever} index yet (label index parts {', '.join(missing or parts)}); "
            f"run `kgqa index build --retriever {retriever}` first"
        )
    if meta["embedding_model"] != embedder_name:
        raise IndexMismatchError(
            f"the {retriever} index was built with embedding model '{meta['embedding_model']}' "
            f"but the current model is '{embedder_name}'; run "
            f"`kgqa index build --retriever {retriever} --rebuild`"
        )
    return meta


def build_label_index(
    store: GraphStore,
    embedder: Embedder,
    retriever: str,
    parts: tuple[str, ...],
    *,
    rebuild: bool = False,
    on_progress: ProgressFn = no_progress,
) -> LabelIndexReport:
    """Build or update the parts of the label index that `retriever` reads (its registry entry's)."""
    start = time.perf_counter()
    require_triple_layout(store, retriever)
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise ConfigError(f"unknown label index part(s) {', '.join(unknown)}; known: {', '.join(PARTS)}")
    meta = read_meta(store)
    # the model is loaded only when something must be embedded (or the stored model differs)
    same_model = meta is not None and meta.get("embedding_model") == embedder.name
    dim = int(meta["dim"]) if same_model and meta else embedder.dim
    if meta is not None and (meta.get("embedding_model") != embedder.name or int(meta.get("dim", 0)) != dim):
        if not rebuild:
            raise IndexMismatchError(
                f"the label index was built with embedding model '{meta.get('embedding_model')}' (dimension "
                f"{meta.get('dim')}) but the current model is '{embedder.name}' (dimension {dim}); "
                f"run `kgqa index build --retriever {retriever} --rebuild`"
            )
    if rebuild:
        drop_label_index(store)
        meta = None
    store.load_extension("vector")
    store.apply_migrations(MIGRATIONS, dim=dim)
    meta = meta or {"embedding_model": embedder.name, "dim": dim, "parts": {}}
    report = LabelIndexReport(retriever)
    for name in parts:
        part = PARTS[name]
        content = _content(store, part)
        old = meta["parts"].get(name)
        if old and old.get("signature") == content.signature:
            report.parts.append(PartReport(name, old.get("texts", 0), old.get("links", 0), unchanged=True))
            continue
        rep = _write_part(store, embedder, part, content, dim, on_progress)
        meta["parts"][name] = {
            "texts": rep.texts,
            "links": rep.links,
            "signature": content.signature,
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        store.meta_set(META_KEY, meta)
        report.parts.append(rep)
    report.seconds = time.perf_counter() - start
    return report


def drop_label_index(store: GraphStore) -> None:
    """Drop every label-index table, its HNSW indexes and metadata."""
    if not store.has_table("kgqa_TripleText"):
        store.meta_set(META_KEY, None)
        return
    store.load_extension("vector")
    for table, _index in store.run("labelindex/show_indexes"):
        kind = next(p.kind for p in PARTS.values() if p.table == table)
        store.run(f"labelindex/drop_{kind}_vector_index")
    store.run("labelindex/drop_tables")
    store.run("meta/forget_migrations", {"prefix": f"{MIGRATIONS}/"})
    store.meta_set(META_KEY, None)


def label_index_status(store: GraphStore) -> dict[str, Any] | None:
    """Model, dimension and built parts (texts, links, build time) of the label index, or None."""
    meta = read_meta(store)
    if not meta:
        return None
    parts = {name: {k: v for k, v in part.items() if k != "signature"} for name, part in meta.get("parts", {}).items()}
    return {"embedding_model": meta.get("embedding_model"), "dim": meta.get("dim"), "parts": parts}


def label_index_counts(store: GraphStore) -> dict[str, int]:
    """Stored texts and links per table (all zero before the first build)."""
    keys = ("triple_texts", "triple_links", "label_texts", "label_links", "predicate_texts")
    if not store.has_table("kgqa_TripleText"):
        return dict.fromkeys(keys, 0)
    return dict(zip(keys, (int(v) for v in store.run("labelindex/counts")[0])))


# -- content of a part ---------------------------------------------------------------------------
def _content(store: GraphStore, part: Part) -> _Content:
    """The texts the graph holds now for `part`, their link rows, and a signature of both."""
    texts: dict[str, str] = {}
    links: list[dict[str, str]] = []
    if part.name == "triples":
        sids, slabels, preds, oids, olabels = store.run_columns("labelindex/graph_triples")
        for sid, sl, p, oid, ol in zip(sids, slabels, preds, oids, olabels):
            text = Triple(Entity(sid, sl or ""), p, Entity(oid, ol or "")).text
            h = text_hash(text)
            texts[h] = text
            links.append({"hash": h, "subject": sid, "predicate": p, "object": oid})
    elif part.name == "labels":
        ids, labels = store.run_columns("labelindex/graph_labels")
        for eid, label in zip(ids, labels):
            text = Entity(eid, label or "").text
            h = text_hash(text)
            texts[h] = text
            links.append({"hash": h, "entity": eid})
    else:
        for (p,) in store.run("retrieval/predicates"):
            if p:
                texts[text_hash(p)] = p
    digest = hashlib.sha256()
    for row in sorted("\x1f".join(r.values()) for r in links) if links else sorted(texts):
        digest.update(row.encode("utf-8"))
        digest.update(b"\x1e")
    return _Content(texts, links, digest.hexdigest()[:32])


def _write_part(
    store: GraphStore, embedder: Embedder, part: Part, content: _Content, dim: int, on_progress: ProgressFn
) -> PartReport:
    """Embed what is new, then in one transaction: drop stale texts, add new ones, rewrite the links."""
    stored = {r[0] for r in store.run(f"labelindex/{part.kind}_text_hashes")}
    new = [h for h in content.texts if h not in stored]
    stale = [h for h in stored if h not in content.texts]
    vectors = _reuse(store, embedder, part, new)
    reused = len(vectors)
    todo = [h for h in new if h not in vectors]
    for i in range(0, len(todo), 512):
        chunk = todo[i : i + 512]
        for h, v in zip(chunk, embedder.embed([content.texts[h] for h in chunk])):
            vectors[h] = v
        on_progress(f"embedding {part.name}", min(i + 512, len(todo)), len(todo))
    with store.transaction():
        # links go first and texts are deleted without DETACH: Kùzu 0.11.3 can replay a committed
        # DETACH DELETE wrongly after a crash (see kgqa/vectorstores/kuzu_store.py)
        if part.name != "predicates":
            store.run(f"labelindex/clear_{part.kind}_links")
        for chunk in _chunks(stale, 5000):
            store.run(f"labelindex/delete_{part.kind}_texts", {"hashes": chunk})
        for chunk in _chunks(new, 20000):
            table = text_table({h: (content.texts[h], vectors[h]) for h in chunk}, dim)
            store.run_with_table(f"labelindex/insert_{part.kind}_texts", table, dim=dim)
        if part.name != "predicates":
            for chunk in _chunks(content.links, 50000):
                store.run_with_table(f"labelindex/insert_{part.kind}_links", pa.Table.from_pylist(chunk))
    if content.texts and not any(t == part.table for t, _ in store.run("labelindex/show_indexes")):
        store.run(f"labelindex/create_{part.kind}_vector_index")
    return PartReport(part.name, len(content.texts), len(content.links), len(todo), reused, len(stale))


def _reuse(store: GraphStore, embedder: Embedder, part: Part, hashes: list[str]) -> dict[str, np.ndarray]:
    """Embeddings of identical texts already stored by another part, or by HubLink's index when it
    was built with the same model (its EmbeddedText holds triple, entity and predicate texts)."""
    found: dict[str, np.ndarray] = {}
    queries = [f"labelindex/{p.kind}_text_raw" for p in PARTS.values() if p is not part]
    hub = store.meta_get(HUB_META_KEY) or {}
    if store.has_table("kgqa_EmbeddedText") and hub.get("embedding_model") == embedder.name:
        queries.append("retrieval/text_embeddings")
    for query in queries:
        missing = [h for h in hashes if h not in found]
        for chunk in _chunks(missing, 5000):
            for h, raw in store.run(query, {"hashes": chunk}):
                if raw is not None:
                    found[h] = raw_vector(raw)
    return found


def _chunks(rows: list, size: int) -> Iterator[list]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]
