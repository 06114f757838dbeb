"""Index builds that several processes share, with Postgres as the store and the coordinator
(docs/distributed-build.md).

`build_shared` (`kgqa index build --store pgvector --workers N`) prepares the index as a single build
does, queues the hub batches (hub ids + their stored signatures) in the index's build queue
(kgqa/postgres/build_queue.py), starts N local worker processes and waits until the queue is drained;
then it removes stale hubs, makes the ANN index once and marks the index complete. `work`
(`kgqa index worker`, on any machine with the graph and the DSN) claims batches until none is open;
each batch is enumerated from the graph opened read-only, embedded, and written in the transaction
that marks it done. A worker that dies loses its lease, and its batch is claimed again."""

from __future__ import annotations

import multiprocessing
import sys
import time
import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np

from kgqa.config import IndexParams, Settings
from kgqa.embeddings import embedder_for_index
from kgqa.embeddings.base import Embedder
from kgqa.errors import ConfigError, InputError, KgqaError, SharedBuildError
from kgqa.graph.store import GraphStore
from kgqa.indexing.builder import SHOWN_LABELS, TEMPLATE_VERBALISER, BuildReport, IndexBuild
from kgqa.indexing.metadata import check_compatible, read_info, stored_params
from kgqa.postgres import build_queue as queue
from kgqa.postgres.build_queue import LEASE_S, Batch, Heartbeat
from kgqa.postgres.indexes import schema_of
from kgqa.progress import ProgressFn, no_progress
from kgqa.vectorstores.base import HubRecord, HubVectorStore
from kgqa.vectorstores.pgvector_store import PgVectorHubStore
from kgqa.vectorstores.registry import open_vstore

#: Seconds between looks at the queue (coordinator progress; a worker waiting for leases to run out).
POLL_S = 0.5
#: The report counts a batch adds up (BuildReport fields).
_COUNTS = (
    "hubs_checked",
    "hubs_rebuilt",
    "hubs_unchanged",
    "hubs_without_paths",
    "paths_written",
    "vectors_written",
    "texts_embedded",
    "texts_reused",
)


@dataclass
class WorkerReport:
    """What one `index worker` did."""

    worker: str
    batches: int = 0
    hubs: int = 0
    reclaimed: int = 0  # batches it took over from a worker whose lease ran out


def check_shared(vstore: HubVectorStore, params: IndexParams, workers: int) -> PgVectorHubStore:
    """The pgvector store, when a shared build of `params` with `workers` local workers can run;
    else InputError or ConfigError naming the problem."""
    if workers < 1:
        raise InputError(f"--workers must be at least 1 (got {workers})", field="workers")
    if not isinstance(vstore, PgVectorHubStore):
        raise ConfigError("a build with --workers needs the pgvector store (--store pgvector and a Postgres DSN)")
    if params.start_ids:
        raise InputError(
            "a build with --workers indexes every hub root; --start is not supported with it", field="start"
        )
    return vstore


def build_shared(
    store: GraphStore,
    vstore: HubVectorStore,
    embedder: Embedder,
    params: IndexParams,
    *,
    settings: Settings,
    workers: int,
    rebuild: bool = False,
    on_progress: ProgressFn = no_progress,
    lease_s: float = LEASE_S,
) -> BuildReport:
    """Build the index of the graph in `store` into the pgvector `vstore` with `workers` local worker
    processes (more may join with `kgqa index worker`); the graph may be open read-only. The report
    sums the batches' counts; its phase timings are the workers' summed times."""
    pg = check_shared(vstore, params, workers)
    info = read_info(pg)
    used = info.params.get("verbaliser", TEMPLATE_VERBALISER) if info is not None else TEMPLATE_VERBALISER
    if used != TEMPLATE_VERBALISER and not rebuild:
        raise InputError(
            f"the index's path texts come from the verbaliser '{used}'; a build with --workers "
            "writes template texts: build without --workers, or replace the index with --rebuild"
        )
    build = IndexBuild(store, pg, embedder, params, rebuild=rebuild, on_progress=on_progress)
    build.prepare()
    build.find_roots()
    roots = sorted(build.candidates)
    batches = [
        {
            "ids": chunk,
            "signatures": [build.stored.get(h, "") for h in chunk],
            "labels": [build.candidates[h] for h in chunk],
        }
        for chunk in (roots[i : i + params.hubs_per_batch] for i in range(0, len(roots), params.hubs_per_batch))
    ]
    build_id = uuid.uuid4().hex
    queue.enqueue(pg.db, build_id, batches)
    context = multiprocessing.get_context("spawn")
    procs = [
        context.Process(target=_worker_process, args=(settings, lease_s), name=f"kgqa-build-worker-{i}")
        for i in range(workers if batches else 0)
    ]
    for p in procs:
        p.start()
    try:
        if batches:
            _wait(pg, procs, len(roots), on_progress)
    except BaseException:
        for p in procs:  # a failed build (or ^C): the workers' open batches roll back
            p.terminate()
        raise
    finally:
        for p in procs:
            p.join(timeout=5 * lease_s)
            if p.is_alive():
                p.terminate()
                p.join()
    report = build.report
    for result in queue.results(pg.db, build_id):
        for key in _COUNTS:
            setattr(report, key, getattr(report, key) + int(result[key]))
        report.rebuilt_ids += result["rebuilt_ids"]
        for hub_id, label in result.get("hub_labels", {}).items():
            if len(report.hub_labels) < SHOWN_LABELS:
                report.hub_labels.setdefault(hub_id, label)
        build.pathless.update(result["pathless"])
        for phase, seconds in result["timings"].items():
            report.timings[phase] = report.timings.get(phase, 0.0) + seconds
    build.indexed = set(roots)
    return build.finish()


def _wait(pg: PgVectorHubStore, procs: list[Any], total: int, on_progress: ProgressFn) -> None:
    """Until the queue is drained: progress, and an error when a batch failed or every local worker
    died with batches left."""
    while True:
        state = queue.progress(pg.db)
        if state is None:
            raise SharedBuildError("the build queue was emptied by another build of the same index")
        on_progress("hubs", state.hubs_done, total)
        if state.failed:
            raise SharedBuildError(f"a batch of the shared build failed: {state.failed}")
        if not state.open:
            return
        if not any(p.is_alive() for p in procs):
            codes = ", ".join(str(p.exitcode) for p in procs)
            raise SharedBuildError(
                f"every local build worker exited (exit codes {codes}) with {state.open} of {state.batches} "
                "batches left; the finished batches are kept: run the build again (it rebuilds only the rest)"
            )
        time.sleep(POLL_S)


def _worker_process(settings: Settings, lease_s: float) -> None:
    """The entry of a local worker process: `work`, errors to stderr and exit code 1."""
    try:
        work(settings, lease_s=lease_s)
    except KgqaError as exc:
        print(f"kgqa build worker: {exc}", file=sys.stderr)
        sys.exit(1)


class _QueuedBatchBuild(IndexBuild):
    """The builder's batch phases for one claimed batch: its writes and its done mark in one transaction."""

    pg: PgVectorHubStore
    batch: Batch
    worker: str

    def write(self, changed: list[HubRecord], new_texts: dict[str, tuple[str, np.ndarray]]) -> None:
        with self.pg.db.transaction():
            super().write(changed, new_texts)
            self.mark_done()

    def mark_done(self) -> None:
        """The batch done, with its counts (LeaseLost rolls the batch's writes back)."""
        report = self.report
        result = {key: getattr(report, key) for key in _COUNTS}
        result.update(
            rebuilt_ids=report.rebuilt_ids,
            hub_labels=report.hub_labels,
            pathless=sorted(self.pathless),
            timings=report.timings,
        )
        queue.mark_done(self.pg.db, self.batch, self.worker, result)
        self.done = True

    def run_batch(self, batch: Batch) -> None:
        """Build `batch` (hubs whose paths match their stored signature are left as they are)."""
        self.batch, self.done = batch, False
        self.report = BuildReport(verbaliser=TEMPLATE_VERBALISER)
        self.pathless = set()
        self.stored = dict(zip(batch.hub_ids, batch.signatures))
        self.candidates.update(zip(batch.hub_ids, batch.labels))
        spent = self.ctx.verbalise_seconds
        self.build_batch(batch.hub_ids, 0)
        verbalise = self.ctx.verbalise_seconds - spent  # inside the enumeration query (as in `finish`)
        self.report.timings["verbalise"] = self.report.timings.get("verbalise", 0.0) + verbalise
        self.report.timings["enumerate_paths"] = self.report.timings.get("enumerate_paths", 0.0) - verbalise
        if not self.done:  # no hub changed: nothing written
            self.mark_done()


def work(
    settings: Settings,
    *,
    lease_s: float = LEASE_S,
    embedder: Embedder | None = None,
    on_batch: ProgressFn = no_progress,
) -> WorkerReport:
    """Claim and build batches of the index's shared build until none is open (`kgqa index worker`).
    The graph is opened read-only (from Postgres with `--graph postgres`: no Kùzu file). InputError when
    no build of the index waits for workers."""
    store = _open_graph(settings)
    try:
        vstore = open_vstore("pgvector", store, settings)
        try:
            return _work(store, vstore, settings, lease_s, embedder, on_batch)
        finally:
            vstore.close()
    finally:
        store.close()


def _open_graph(settings: Settings) -> GraphStore:
    """The workspace's graph, read-only: its Kùzu file, or its tables in Postgres (`--graph postgres`)."""
    if settings.graph == "postgres":
        from kgqa.postgres.graph_store import open_pg_graph

        return open_pg_graph(settings, read_only=True)
    return GraphStore(
        settings.db_path, read_only=True, buffer_pool_mib=settings.buffer_pool_mib, memory=settings.memory
    )


def _work(
    store: GraphStore,
    vstore: HubVectorStore,
    settings: Settings,
    lease_s: float,
    embedder: Embedder | None,
    on_batch: ProgressFn,
) -> WorkerReport:
    assert isinstance(vstore, PgVectorHubStore)
    state = queue.progress(vstore.db) if queue.has_queue(vstore.db) else None
    info = read_info(vstore)
    if state is None or not state.open or info is None:
        raise InputError(
            f"no index build of index '{vstore.index}' waits for workers: start one with "
            "`kgqa index build --store pgvector --workers N` (on the machine that coordinates it)"
        )
    if info.params.get("verbaliser", TEMPLATE_VERBALISER) != TEMPLATE_VERBALISER:
        raise InputError(
            "a shared build keeps the template path texts; this index uses the verbaliser "
            f"'{info.params['verbaliser']}'"
        )
    embedder = embedder or embedder_for_index(settings, info.embedding_model)  # the index's space
    check_compatible(info, embedder.name)
    vstore.dim = info.dim
    vstore.shared_writes = True
    build = _QueuedBatchBuild(store, vstore, embedder, stored_params(info))
    build.pg, build.worker = vstore, queue.worker_id()
    build.readable = True
    build.find_roots(read_stored=False)  # every hub root: where the paths of a batch end
    report = WorkerReport(build.worker)
    with Heartbeat(vstore.db.dsn, schema_of(vstore.index), build.worker, lease_s):
        while True:
            batch = queue.claim(vstore.db, build.worker, lease_s)
            if batch is None:
                state = queue.progress(vstore.db)
                if state is None or not state.open or state.failed:
                    return report
                time.sleep(min(POLL_S, lease_s / 3))  # batches held by others: wait for them or their leases
                continue
            try:
                build.run_batch(batch)
            except queue.LeaseLost:
                continue
            except KgqaError as exc:
                queue.mark_failed(vstore.db, batch, build.worker, str(exc))
                raise
            report.batches += 1
            report.hubs += len(batch.hub_ids)
            report.reclaimed += batch.attempts > 1
            on_batch("batches", report.batches, None)
