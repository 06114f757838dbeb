"""HUBINDEXING (thesis Alg. 2–7): find hub roots, enumerate paths in bulk, embed, store; rebuild
only hubs whose path-hash set changed, so an unchanged graph rebuilds nothing and an interrupted
build resumes where it stopped."""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from kgqa_procedures.udfs import UdfContext, register_udfs

from kgqa.config import ENUMERATED_ROOTS, IndexParams
from kgqa.embeddings.base import Embedder
from kgqa.errors import ConfirmationRequired, EntityNotFoundError, IndexMismatchError, InputError
from kgqa.graph.layout import layout_of
from kgqa.graph.property_layout import remember_mapping
from kgqa.graph.reader import entities_by_ids, graph_stats
from kgqa.graph.store import GraphStore
from kgqa.graph.traversal import HubRootSearch, both_directions
from kgqa.indexing.metadata import IndexInfo, check_compatible, embedder_labels, read_info, write_info
from kgqa.indexing.paths import enumerate_paths, signature, with_path_texts
from kgqa.indexing.verbalise import PathVerbaliser
from kgqa.memory import release_unused_memory
from kgqa.progress import ProgressFn, no_progress
from kgqa.types import Direction, EntityWithDirection
from kgqa.vectorstores.base import HubRecord, HubVectorStore, IndexCounts, PathRecord

#: The verbaliser name recorded when the template path texts are kept (offline).
TEMPLATE_VERBALISER = "template"


#: How many rebuilt hubs' labels a report keeps (a command names the first ones).
SHOWN_LABELS = 20


@dataclass
class BuildReport:
    """What one `index build` did."""

    hub_roots: int = 0
    hubs_checked: int = 0
    hubs_rebuilt: int = 0
    hubs_unchanged: int = 0
    hubs_removed: int = 0
    hubs_without_paths: int = 0
    paths_written: int = 0
    vectors_written: int = 0
    texts_embedded: int = 0
    texts_reused: int = 0
    counts: IndexCounts = field(default_factory=lambda: IndexCounts(0, 0, 0, 0))
    timings: dict[str, float] = field(default_factory=dict)
    verbaliser: str = TEMPLATE_VERBALISER
    dry_run: bool = False  # counts say what a build would do; nothing was written or sent
    llm: dict[str, Any] = field(default_factory=dict)  # verbaliser usage, or its estimate in a dry run
    mode: str = "full"  # full: every hub's path hashes compared; dirty: only marked hubs
    hubs_added: int = 0  # of hubs_rebuilt, those not in the index before (new roots)
    vectors_deleted: int = 0  # stale HubVectors of rebuilt and removed hubs
    rebuilt_ids: list[str] = field(default_factory=list)
    removed_ids: list[str] = field(default_factory=list)
    hub_labels: dict[str, str] = field(default_factory=dict)  # the first SHOWN_LABELS rebuilt hubs' labels, by id
    notes: list[str] = field(default_factory=list)
    memory_released: int = 0  # bytes the process gave back before the HNSW step (`release_unused_memory`)

    @property
    def nothing_to_do(self) -> bool:
        """True when the stored index already matched the graph."""
        return self.hubs_rebuilt == 0 and self.hubs_removed == 0


class _Timer:
    def __init__(self, timings: dict[str, float], phase: str) -> None:
        self.timings, self.phase = timings, phase

    def __enter__(self) -> None:
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.timings[self.phase] = self.timings.get(self.phase, 0.0) + time.perf_counter() - self.start


def _context(params: IndexParams) -> UdfContext:
    return UdfContext(frozenset(params.hub_types), params.min_out_degree, params.criteria_mode)


def build_index(
    store: GraphStore,
    vstore: HubVectorStore,
    embedder: Embedder,
    params: IndexParams,
    *,
    rebuild: bool = False,
    on_progress: ProgressFn = no_progress,
    verbaliser: PathVerbaliser | None = None,
    dry_run: bool = False,
    dirty: set[str] | None = None,
) -> BuildReport:
    """Build or bring up to date the HubLink index of the graph in `store` (see `IndexBuild`)."""
    return IndexBuild(
        store,
        vstore,
        embedder,
        params,
        rebuild=rebuild,
        on_progress=on_progress,
        verbaliser=verbaliser,
        dry_run=dry_run,
        dirty=dirty,
    ).run()


class IndexBuild:
    """One `index build`: its phases are methods, the state they share is held here.

    `run()` = `prepare()` (compatibility, inputs, schema, the "building" mark), `find_roots()`,
    `walk()` (hub roots level by level, in batches: `build_batch()` enumerates, compares,
    verbalises, embeds and writes), then `finish()` (stale hubs, ANN index, the "complete" mark).
    With `dry_run`, only count what would be done (hubs, paths, texts to embed, the verbaliser's
    estimate).

    With `dirty` (the hubs marked by graph changes, kgqa/indexing/dirty.py), only those hubs and
    roots not in the index yet have their paths enumerated and compared; the other indexed hubs
    are taken as they are (in traversal mode their stored path ends lead to the next level). Hub
    roots are still found in full, so hubs whose root disappeared are removed. An index whose last
    build did not complete is checked in full instead."""

    def __init__(
        self,
        store: GraphStore,
        vstore: HubVectorStore,
        embedder: Embedder,
        params: IndexParams,
        *,
        rebuild: bool = False,
        on_progress: ProgressFn = no_progress,
        verbaliser: PathVerbaliser | None = None,
        dry_run: bool = False,
        dirty: set[str] | None = None,
    ) -> None:
        self.store, self.vstore, self.embedder, self.params = store, vstore, embedder, params
        self.rebuild, self.on_progress, self.verbaliser, self.dry_run = rebuild, on_progress, verbaliser, dry_run
        self.dirty = dirty
        name = verbaliser.name if verbaliser is not None else TEMPLATE_VERBALISER
        self.report = BuildReport(verbaliser=name, dry_run=dry_run)
        self.fingerprint: dict[str, Any] = dict(params.fingerprint(), verbaliser=name)
        self.info: IndexInfo | None = None
        self.dim = 0
        self.writers = ""  # the embedder backends that wrote the index
        self.capped: dict[str, int] = {}  # super-nodes indexed in part this run: root -> its number of paths
        self.before = IndexCounts(0, 0, 0, 0)
        self.ctx = _context(params)
        self.candidates: dict[str, str] = {}  # hub root id -> label
        self.readable = False  # the store's tables exist (stored texts can be reused)
        self.stored: dict[str, str] = {}  # hub id -> stored signature ("" forces a rebuild)
        self.known: set[str] = set()  # hubs in the index before this build
        self.indexed: set[str] = set()  # hubs this build has dealt with
        self.pathless: set[str] = set()  # roots without any path: not (or no longer) hubs
        self.total_hint: int | None = None
        # `walk` embeds one batch on a thread while the batch before is written (`build_batch`)
        self._embedding: ThreadPoolExecutor | None = None
        self._pending: tuple[list[HubRecord], Future[dict[str, tuple[str, np.ndarray]]], list[str]] | None = None
        self._in_flight: set[str] = set()  # text hashes being embedded, not written yet
        self._started = time.perf_counter()

    def run(self) -> BuildReport:
        """All phases; the build's report."""
        if not self.prepare():
            return self._done()
        self.find_roots()
        self.walk()
        return self.finish()

    def prepare(self) -> bool:
        """Check compatibility and inputs, make the schema and mark the index "building". False
        when there is nothing to do (a dirty-only build with no hub marked)."""
        report, vstore, embedder, params = self.report, self.vstore, self.embedder, self.params
        info = self.info = read_info(vstore)
        if info is not None and not self.rebuild and not self.dry_run:  # by name first: a wrong model need not load
            check_compatible(IndexInfo(info.embedding_model, info.dim, info.params, "complete", {}), embedder.name)
        if self.dirty is not None and (self.rebuild or info is None or info.status != "complete"):
            report.notes.append("the index is not complete (an interrupted build?): every hub was checked")
            self.dirty = None
        if self.dirty is not None and info is not None and info.params != self.fingerprint:
            report.notes.append("the index parameters or verbaliser differ from the stored ones: every hub was checked")
            self.dirty = None
        if self.dirty is not None:
            report.mode = "dirty"
            if not self.dirty:
                report.notes.append("no hub is marked dirty")
                return False
        other_params = info is not None and bool(_differing(info, params))
        _check_inputs(self.store, params, first_build=info is None or self.rebuild or other_params)
        if info is not None and other_params and not self.rebuild and not self.dry_run:
            refuse_other_params(info, params, vstore)
        self.before = vstore.counts() if vstore.ready() else IndexCounts(0, 0, 0, 0)  # (a rebuild deletes them all)
        if not self.dry_run:
            # the same model as the index's (checked above): its stored dimension, so the model loads
            # only when texts need embedding (the vectors' dimension is checked then)
            self.dim = info.dim if info is not None and not self.rebuild else embedder.dim
            check_memory = getattr(vstore, "check_build_memory", None)  # Kùzu: its HNSW step under the ceiling
            if check_memory is not None:
                triples = layout_of(self.store).stats(1).triples
                check_memory(triples, self.dim, rebuild=self.rebuild, hubs_per_batch=params.hubs_per_batch)
            if self.rebuild:
                vstore.drop()
            vstore.ensure_schema(self.dim)
            self.writers = embedder_labels(None if self.rebuild else info, embedder)
            write_info(
                vstore,
                IndexInfo(
                    embedder.name, self.dim, self.fingerprint, "building", info.stats if info else {}, self.writers
                ),
            )
            remember_mapping(
                self.store, frozenset(params.hub_types)
            )  # a user's own graph: later readers use the same mapping
        return True

    def find_roots(self, *, read_stored: bool = True) -> None:
        """Find the hub-root candidates and (with `read_stored`) read the stored hub signatures."""
        register_udfs(self.store, self.ctx)
        with _Timer(self.report.timings, "find_roots"):
            self.candidates = {r[0]: r[1] for r in layout_of(self.store).hub_root_candidates(self.ctx)}
            self.ctx.root_ids = set(self.candidates)
        self.report.hub_roots = len(self.candidates)
        if not read_stored:
            return
        self.readable = self.vstore.ready()
        stored = self.vstore.signatures() if self.readable else {}
        self.known = set(stored)
        info = self.info
        if self.rebuild or (
            info is not None and info.params.get("verbaliser", TEMPLATE_VERBALISER) != self.report.verbaliser
        ):
            stored = dict.fromkeys(stored, "")  # every hub gets new path texts (and stale ones still go)
        self.stored = stored

    def walk(self) -> None:
        """Every hub root (all of them, or level by level from the start entities in traversal mode).
        A batch's texts are embedded on a second thread while the batch before is written and the next
        one enumerated; the batches are written in order."""
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgqa-embed") as pool:
            self._embedding = pool
            try:
                with self.vstore.bulk_writes() if not self.dry_run else nullcontext():
                    self._walk()
                    self.flush()
            finally:
                self._embedding = None

    def _walk(self) -> None:
        params = self.params
        if not params.start_ids:
            self.total_hint = len(self.candidates)
            self.process_level(sorted(self.candidates), 0)
            return
        self.total_hint = None
        search = HubRootSearch(self.store, self.ctx.root_ids.__contains__, params.uniform_hop_count)
        entities = both_directions(params.start_ids)
        depth = 0
        while entities and depth <= params.max_indexing_depth:
            with _Timer(self.report.timings, "find_roots"):
                found, entities = search.find(entities)
            new_roots = sorted({e.entity_id for e in found} - self.indexed)
            ends = self.process_level(new_roots, depth)
            entities = list(entities) + [EntityWithDirection(e, Direction.FORWARD) for e in sorted(ends - self.indexed)]
            depth += 1

    def process_level(self, roots: list[str], depth: int) -> set[str]:
        """The roots of one level, their paths enumerated ENUMERATED_ROOTS (at least `hubs_per_batch`) at a
        time and the changed hubs written `hubs_per_batch` at a time; the hub roots their paths end at."""
        params, dirty = self.params, self.dirty
        size = params.hubs_per_batch
        boundary: set[str] = set()
        if dirty is not None:  # indexed hubs that no change touched keep their stored paths; the others
            # are batched together (a batch's queries scan the graph and the index whatever its size)
            kept = [r for r in roots if r in self.known and r not in dirty]
            roots = [r for r in roots if r not in self.known or r in dirty]
            self.report.hubs_unchanged += len(kept)
            for i in range(0, len(kept), size):
                if params.start_ids:
                    boundary |= _stored_ends(self.vstore, kept[i : i + size])
                self.indexed.update(kept[i : i + size])
                self.on_progress("hubs", len(self.indexed), self.total_hint)
        step = max(size, ENUMERATED_ROOTS)  # roots per enumeration query; written `size` hubs at a time
        for i in range(0, len(roots), step):
            batch = roots[i : i + step]
            boundary |= self.build_batch(batch, depth)
            self.indexed.update(batch)
            self.on_progress("hubs", len(self.indexed), self.total_hint)
        return boundary & self.ctx.root_ids

    def build_batch(self, roots: list[str], depth: int) -> set[str]:
        """Enumerate and compare a batch of hub roots (one query), then verbalise, embed and write its
        changed hubs `hubs_per_batch` at a time (a transaction each); the boundary entities their
        paths end at."""
        changed, texts, boundary = self.changed_hubs(roots, depth)
        size = self.params.hubs_per_batch
        for i in range(0, len(changed), size):
            self.rebuild_hubs(changed[i : i + size], texts)
        return boundary

    def rebuild_hubs(self, changed: list[HubRecord], texts: dict[str, str]) -> None:
        """Verbalise, embed and write these changed hubs in one transaction (the embedding queued on
        the embedding thread while the hubs before are written)."""
        changed = self.verbalise(changed, texts)
        needed = list(dict.fromkeys(th for h in changed for p in h.paths for _, th in p.vectors))
        with _Timer(self.report.timings, "write"):
            have = self.vstore.existing_texts(needed) if self.readable else set()
        todo = [th for th in needed if th not in have and th not in self._in_flight]
        self._count_rebuilt(changed, len(todo), len(needed) - len(todo))
        if self.dry_run:  # with an LLM verbaliser a dry run's path texts are still the template ones
            return
        if self._embedding is None:
            self.write(changed, self.embed(todo, texts))
            return
        embedded = self._embedding.submit(self.embed, todo, texts)  # queued behind the batch before's
        self.flush()
        self._pending = (changed, embedded, todo)
        self._in_flight.update(todo)

    def flush(self) -> None:
        """Write the batch whose texts are being embedded, once they are."""
        if self._pending is None:
            return
        changed, embedded, todo = self._pending
        self._pending = None
        waited = time.perf_counter()
        new_texts = embedded.result()
        self.report.timings["embed_wait"] = self.report.timings.get("embed_wait", 0.0) + time.perf_counter() - waited
        self.write(changed, new_texts)
        self._in_flight.difference_update(todo)

    def changed_hubs(self, roots: list[str], depth: int) -> tuple[list[HubRecord], dict[str, str], set[str]]:
        """Enumerate the paths of `roots`; the hubs whose signature differs from the stored one,
        the texts by hash, and the boundary entities."""
        report = self.report
        by_root, texts, boundary = enumerate_paths(
            self.store, roots, self.params, report.timings, self.ctx, self.capped
        )
        changed: list[HubRecord] = []
        for root in roots:
            paths = by_root.get(root, [])
            report.hubs_checked += 1
            if not paths:
                report.hubs_without_paths += 1
                self.pathless.add(root)
                continue
            sig = hub_signature(paths, report.verbaliser)
            if self.stored.get(root) == sig:
                report.hubs_unchanged += 1
                continue
            changed.append(HubRecord(root, self.candidates.get(root, ""), depth, sig, tuple(paths)))
        return changed, texts, boundary

    def verbalise(self, changed: list[HubRecord], texts: dict[str, str]) -> list[HubRecord]:
        """The hubs with the verbaliser's path texts (unchanged without one; planned in a dry run)."""
        if self.verbaliser is None:
            return changed
        with _Timer(self.report.timings, "verbalise"):
            paths = [p for h in changed for p in h.paths]
            if self.dry_run:
                self.verbaliser.plan(paths)
                return changed
            return with_path_texts(changed, self.verbaliser.verbalise(paths), texts)

    def embed(self, todo: list[str], texts: dict[str, str]) -> dict[str, tuple[str, np.ndarray]]:
        """Embed the texts with hashes `todo`: text hash -> (text, vector)."""
        if not todo:
            return {}
        with _Timer(self.report.timings, "embed"):
            vecs = self.embedder.embed([texts[th] for th in todo])
        if vecs.shape[1] != self.vstore.dim:
            raise IndexMismatchError(
                f"the model '{self.embedder.name}' produces dimension {vecs.shape[1]} but the "
                f"index stores dimension {self.vstore.dim}; rebuild with `kgqa index build --rebuild`"
            )
        return {th: (texts[th], v) for th, v in zip(todo, vecs)}

    def write(self, changed: list[HubRecord], new_texts: dict[str, tuple[str, np.ndarray]]) -> None:
        """Replace the stored hubs by `changed` (with their paths and vectors) and store new texts."""
        new = {h.id for h in changed if h.id not in self.stored}  # read from the store before any write
        with _Timer(self.report.timings, "write"):
            self.report.vectors_written += self.vstore.replace_hubs(changed, new_texts, new=new)

    def finish(self) -> BuildReport:
        """Remove stale hubs and unused texts, make the ANN index, mark the index "complete"."""
        report, vstore = self.report, self.vstore
        # the path text and hash UDFs run inside the enumeration query: count them as verbalisation
        report.timings["verbalise"] = report.timings.get("verbalise", 0.0) + self.ctx.verbalise_seconds
        report.timings["enumerate_paths"] = report.timings.get("enumerate_paths", 0.0) - self.ctx.verbalise_seconds
        stale = sorted(set(self.stored) - (self.indexed - self.pathless))
        report.llm = self.verbaliser.summary(self.dry_run) if self.verbaliser is not None else {}
        report.hubs_removed = len(stale)
        report.removed_ids = stale
        if self.dry_run:
            return self._done()
        with _Timer(report.timings, "write"):
            vstore.remove_hubs(stale)
            vstore.collect_garbage()
        with _Timer(report.timings, "ann_index"):
            self.embedder.forget()  # every text is written: the model's memo of them is not needed
            report.memory_released = release_unused_memory()  # nor what the batches left: given back before the step
            vstore.ensure_ann_index()
        report.hubs_added = sum(1 for h in report.rebuilt_ids if h not in self.known)
        self._done()
        report.vectors_deleted = self.before.vectors + report.vectors_written - report.counts.vectors
        write_info(
            vstore,
            IndexInfo(
                self.embedder.name,
                self.dim,
                self.fingerprint,
                "complete",
                {
                    "hubs": report.counts.hubs,
                    "paths": report.counts.paths,
                    "vectors": report.counts.vectors,
                    "texts": report.counts.texts,
                    "last_build_seconds": round(report.timings["total"], 3),
                    "last_build_rebuilt": report.hubs_rebuilt,
                    "capped_hubs": self._capped_hubs(stale),
                    "max_paths_per_hub": self.params.max_paths_per_hub,  # an update keeps it (stored_params)
                },
                self.writers,
            ),
        )
        return report

    def _capped_hubs(self, removed: list[str]) -> dict[str, int]:
        """The hubs indexed in part, as stored for `index status`: those of earlier builds that this one
        did not enumerate again nor remove, and this build's; one warning line names them."""
        kept: dict[str, int] = {}
        if self.dirty is not None and self.info is not None:  # hubs not enumerated again keep their mark
            before = self.info.stats.get("capped_hubs", {})
            kept = {h: n for h, n in before.items() if h not in self.dirty and h not in removed}
        kept.update(self.capped)
        if self.capped:
            shown = ", ".join(f"{h} ({n} paths)" for h, n in sorted(self.capped.items())[:5])
            more = f" and {len(self.capped) - 5} more" if len(self.capped) > 5 else ""
            self.report.notes.append(
                f"warning: {len(self.capped)} hub{'s' if len(self.capped) > 1 else ''} over the cap of "
                f"{self.params.max_paths_per_hub} paths indexed in part: {shown}{more}; the rest of the graph is "
                "indexed in full (docs/index-maintenance.md#super-nodes)"
            )
        return dict(sorted(kept.items()))

    def _done(self) -> BuildReport:
        self.report.counts = self.vstore.counts()
        self.report.timings["total"] = time.perf_counter() - self._started
        return self.report

    def _count_rebuilt(self, changed: list[HubRecord], embedded: int, reused: int) -> None:
        report = self.report
        report.texts_embedded += embedded
        report.texts_reused += reused
        report.hubs_rebuilt += len(changed)
        report.rebuilt_ids += [h.id for h in changed]
        for h in changed[: max(SHOWN_LABELS - len(report.hub_labels), 0)]:
            report.hub_labels[h.id] = h.label
        report.paths_written += sum(len(h.paths) for h in changed)


def _check_inputs(store: GraphStore, params: IndexParams, *, first_build: bool) -> None:
    """Refuse, before anything is written, a build that cannot succeed: unknown start entities, an
    empty graph, or (for a first build) hub-root criteria that no entity meets."""
    missing = set(params.start_ids) - set(entities_by_ids(store, params.start_ids))
    if missing:
        raise EntityNotFoundError(
            f"start entit{'y' if len(missing) == 1 else 'ies'} not in the graph: {', '.join(sorted(missing))}"
        )
    if not first_build:
        return
    layout = layout_of(store)
    if layout.is_empty():
        raise InputError("the graph is empty: load triples with `kgqa load FILE` before building the index")
    roots = layout.hub_root_candidates(_context(params))
    if not roots or not any(deg for _, _, deg in roots):
        criteria = [f"--hub-type {' '.join(params.hub_types)}"] if params.hub_types else []
        if params.min_out_degree is not None:
            criteria.append(f"--min-out-degree {params.min_out_degree}")
        types = graph_stats(store, top=10).top_types
        listed = ", ".join(f"{t} ({n:,})" for t, n in types) or "none (no entity has a type)"
        what = (
            "no entity matches the hub-root criteria"
            if not roots
            else f"the {len(roots):,} entities matching the hub-root criteria have no outgoing triple (so no path), "
            "criteria"
        )
        hint = (
            "; for a graph without types, choose hub roots by degree: --min-out-degree 1 makes every entity "
            "with an outgoing triple a hub root"
            if not types and params.min_out_degree is None
            else ""
        )
        if roots and not hint:  # people that films point at: hubs start from the subjects of triples
            subjects = sorted({t for _, s_types, *_ in layout.predicate_schema() for t in s_types or ()})
            if subjects:
                hint = (
                    "; hub roots are the subjects of triples, and those entities are only objects here: the "
                    f"types whose entities are subjects are {', '.join(subjects[:10])} (--hub-type {subjects[0]})"
                )
        raise InputError(
            f"{what} ({(' and ' if params.criteria_mode == 'all' else ' or ').join(criteria)}); "
            f"the graph's top types by count: {listed}{hint}",
            field="hub-root criteria",
        )


def refuse_other_params(info: IndexInfo, params: IndexParams, vstore: HubVectorStore) -> None:
    """ConfirmationRequired when `params` differ from those the stored index was built with: such a
    build would replace the index (hubs the new criteria do not select are removed). The message
    shows both parameter sets and what the stored index holds; `rebuild=True` allows it."""
    differ = _differing(info, params)
    if not differ:
        return
    given = params.fingerprint()
    stored = {k: info.params.get(k) for k in given}
    c = vstore.counts() if vstore.ready() else IndexCounts(0, 0, 0, 0)
    raise ConfirmationRequired(
        f"the index was built with other parameters (differing: {', '.join(differ)});\n"
        f"  stored: {_params_line(stored)}\n  given:  {_params_line(given)}\n"
        f"building with the given parameters replaces the index: its {c.hubs:,} hubs, {c.paths:,} paths and "
        f"{c.vectors:,} vectors are removed and the hubs the given parameters select are built anew.\n"
        "To bring the index up to date with its own parameters run `kgqa index update`; "
        "to replace it, add --rebuild (or --replace)"
    )


def _differing(info: IndexInfo, params: IndexParams) -> list[str]:
    """The fingerprint parameters (not the verbaliser) in which `params` differ from the stored index's."""
    return [k for k, v in params.fingerprint().items() if info.params.get(k) != v]


def _params_line(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


def hub_signature(paths: list[PathRecord], verbaliser: str = TEMPLATE_VERBALISER) -> str:
    """The stored signature of a hub: its path-hash set, plus the verbaliser when it is not the
    template one (so a hub left with another verbaliser's texts by an interrupted build that
    switched verbalisers is rebuilt when the build is run again)."""
    hashes = [p.hash for p in paths]
    return signature(hashes if verbaliser == TEMPLATE_VERBALISER else [*hashes, f"verbaliser:{verbaliser}"])


def _stored_ends(vstore: HubVectorStore, hub_ids: list[str]) -> set[str]:
    """The entities the stored paths of these hubs end at (where the next hub level starts)."""
    ends: set[str] = set()
    for ids in vstore.path_ends(hub_ids).values():
        ends |= ids
    return ends
