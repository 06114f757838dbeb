"""Read-only workspaces shared by the service's requests: one per worker thread, each with its own Kùzu
database handle and connection (a Kùzu connection is used by one thread at a time), all sharing one
embedding model behind a lock. Admission is bounded: at most `workers + queue` requests are taken in;
the next is refused (the HTTP layer answers 503 with Retry-After).

Writes (`POST /v1/triples`) run with the pool to themselves (`write`): every worker's workspace is taken
back (the requests in flight finish first, new ones wait), the read-only handles are closed, one
writable workspace does the change and rebuilds the dirty hubs, and read-only workspaces are opened
again on the new state, all sharing the model already loaded (no reload)."""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numpy as np

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.embeddings.base import Embedder
from kgqa.memory import settle_heap

T = TypeVar("T")


class PoolFullError(Exception):
    """Every worker is busy and the queue is full."""


class LockedEmbedder:
    """One embedder shared by threads; calls are serialised (the tokenizer is not thread-safe)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.label = inner.label  # backend and precision ("onnx-fp32", "torch-fp32"), for /v1/stats
        self._lock = threading.Lock()

    @property
    def dim(self) -> int:
        """The vector dimension."""
        return self.inner.dim

    def load(self) -> None:
        """Load the inner model now, one call at a time."""
        with self._lock:
            self.inner.load()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """The inner embedder's vectors, one call at a time."""
        with self._lock:
            return self.inner.embed(texts)

    def forget(self) -> None:
        """The inner embedder forgets its texts."""
        with self._lock:
            self.inner.forget()


class WorkspacePool:
    """`workers` read-only workspaces on one database, and a bounded queue in front of them."""

    def __init__(self, settings: Settings, workers: int = 1, queue_size: int = 16) -> None:
        if workers < 1 or queue_size < 0:
            raise ValueError("workers must be >= 1 and queue_size >= 0")
        self.workers, self.queue_size = workers, queue_size
        self._free: queue.Queue[Workspace] = queue.Queue()
        self._all: list[Workspace] = []
        try:
            first = Workspace(settings, read_only=True)
            self._all.append(first)
            # One model for all workspaces (the index's own, KGQA_EMBEDDER=auto follows it), behind a
            # lock (ONNX and torch sessions are not re-entrant here).
            self.embedder = LockedEmbedder(first.embedder)
            first.share_embedder(self.embedder)
            self._free.put(first)
            for _ in range(workers - 1):
                ws = Workspace(settings, read_only=True, embedder=self.embedder)
                self._all.append(ws)
                self._free.put(ws)
        except BaseException:
            self.close()
            raise
        self._executor: ThreadPoolExecutor | None = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="kgqa-worker"
        )
        self._admitted = 0  # changed on the event loop's thread only
        self.warm_up_s = 0.0
        self.settings = settings
        self._write_lock = threading.Lock()

    @property
    def primary(self) -> Workspace:
        """A workspace for quick reads outside the pool (status); not for concurrent use."""
        return self._all[0]

    @property
    def open(self) -> bool:
        """Whether the pool has its workspaces (not after close, nor after a write that could not reopen them)."""
        return bool(self._all)

    @property
    def in_flight(self) -> int:
        """Requests admitted and not yet finished (running or queued)."""
        return self._admitted

    def warm_up(self) -> float:
        """Load the model and run one embedding; returns the seconds it took."""
        self.warm_up_s = self._all[0].warm_up()
        return self.warm_up_s

    def held_note(self) -> str | None:
        """What the workspaces' index store keeps in memory since `prime`, in words (None: nothing)."""
        return self._all[0].vstore.held_note()

    def prime(self) -> None:
        """Read what every question needs from the graph (predicates, hub ids and types) into each
        workspace's cache now, so the first request is as fast as the next; no-op without an index."""
        first = self._all[0]  # what it reads, the others share
        for ws in self._all:
            if ws.index_status().info is None:
                return
            ws.facts.predicates()
            ws.facts.hub_ids()
            ws.facts.hub_types()
            # the table sizes the key-or-scan choices read, each text's hubs (Kùzu keeps both; shared)
            primed = None if ws is first else first
            ws.vstore.prime(like=primed.vstore if primed else None)
            ws.facts.prime_hub_roots(like=primed.facts if primed else None)
        # the whole-graph catalog of exact answers (seconds at 10^5 triples): read once and shared,
        # since every workspace opens the same graph state; each workspace's chain reader
        for ws in self._all:
            ws.facts.catalogs = first.facts.catalogs
            ws.prepare_answers()
            # the graph's labels, for questions without a topic: read once, shared
            ws.facts.chain_answerer(ws.embedder).prime_labels(like=None if ws is first else first.facts.chains)
        settle_heap()  # what was read stays for the service's life: the collector stops scanning it

    async def run(self, fn: Callable[[Workspace], T]) -> T:
        """Run `fn(workspace)` on a worker thread, or raise PoolFullError when the queue is full."""
        if self._admitted >= self.workers + self.queue_size:
            raise PoolFullError(f"{self._admitted} requests in progress or queued")
        self._admitted += 1
        try:
            if self._executor is None:
                raise PoolFullError("the service is shutting down")
            return await asyncio.get_running_loop().run_in_executor(self._executor, self.with_workspace, fn)
        finally:
            self._admitted -= 1

    def with_workspace(self, fn: Callable[[Workspace], T]) -> T:
        ws = self._free.get()
        try:
            return fn(ws)
        finally:
            self._free.put(ws)

    async def write(self, fn: Callable[[Workspace], T]) -> T:
        """Run `fn` on a writable workspace with no question running; the pool then answers from the
        new state. One write at a time; PoolFullError while the service shuts down."""
        if self._executor is None:
            raise PoolFullError("the service is shutting down")
        return await asyncio.to_thread(self._exclusive, fn)

    def exclusive(self, fn: Callable[[Workspace], T]) -> T:
        """`write` on the caller's thread (a background refresh): `fn` on a writable workspace, no question running."""
        return self._exclusive(fn)

    def _exclusive(self, fn: Callable[[Workspace], T]) -> T:
        with self._write_lock:
            held = [self._free.get() for _ in range(len(self._all))]  # waits for the requests in flight
            try:
                for ws in held:
                    ws.close()
                self._all.clear()
                writer = Workspace(self.settings, embedder=self.embedder)
                try:
                    return fn(writer)
                finally:
                    writer.close()
            finally:
                self._reopen()

    def _reopen(self) -> None:
        """Read-only workspaces again (as many as before), on the database as it is now, primed."""
        for _ in range(self.workers):
            ws = Workspace(self.settings, read_only=True, embedder=self.embedder)
            self._all.append(ws)
        self.prime()
        for ws in self._all:
            self._free.put(ws)

    def close(self) -> None:
        """Wait for running work, then close every workspace (idempotent)."""
        executor = getattr(self, "_executor", None)
        if executor is not None:
            executor.shutdown(wait=True)
            self._executor = None
        for ws in self._all:
            ws.close()
        self._all.clear()
