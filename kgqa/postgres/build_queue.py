"""The queue of an index build that several processes share (schema/postgres/005_build_queue.sql): the
coordinator queues hub batches; workers claim one with FOR UPDATE SKIP LOCKED under a lease, kept alive
by a heartbeat, and mark it done in the transaction that writes it. A batch whose lease ran out (its
worker died) is claimed again."""

from __future__ import annotations

import json
import os
import socket
import threading
from dataclasses import dataclass
from itertools import count
from typing import Any

from kgqa.errors import StoreError
from kgqa.postgres.database import PgDatabase

#: Seconds a claimed batch stays leased past the last heartbeat.
LEASE_S = 30.0
_numbers = count(1)


class LeaseLost(StoreError):
    """A worker's batch was claimed by another worker (its lease ran out): its writes are rolled back."""


@dataclass(frozen=True)
class Batch:
    """One claimed batch of hub roots."""

    build_id: str
    number: int
    hub_ids: list[str]
    signatures: list[str]  # stored signature per hub ('' = build anew)
    labels: list[str]
    attempts: int


@dataclass(frozen=True)
class Progress:
    """Where a build stands."""

    build_id: str
    batches: int
    done: int
    hubs_done: int
    open: int
    failed: str | None  # the first failed batch's error


def worker_id() -> str:
    """host:pid:n, unique among the workers of all machines."""
    return f"{socket.gethostname()}:{os.getpid()}:{next(_numbers)}"


def has_queue(db: PgDatabase) -> bool:
    """Whether the index has its build queue table."""
    return bool(db.scalar("build_queue_exists"))


def enqueue(db: PgDatabase, build_id: str, batches: list[dict[str, list[str]]]) -> int:
    """Queue the batches (each {"ids", "signatures", "labels"}) of build `build_id`, numbered from 1;
    the rows of earlier builds go. Returns how many were queued."""
    return int(db.scalar("build_enqueue", {"build_id": build_id, "batches": json.dumps(batches)}) or 0)


def progress(db: PgDatabase) -> Progress | None:
    """The current build's progress (None: nothing queued)."""
    rows = db.run("build_progress")
    if not rows:
        return None
    build_id, batches, done, hubs, open_, failed = rows[0]
    return Progress(build_id, int(batches), int(done), int(hubs), int(open_), failed)


def results(db: PgDatabase, build_id: str) -> list[dict[str, Any]]:
    """The counts of the done batches of a build, in batch order."""
    return [json.loads(r[0]) for r in db.run("build_results", {"build_id": build_id})]


def claim(db: PgDatabase, worker: str, lease_s: float = LEASE_S) -> Batch | None:
    """The first open batch (queued, or leased to a worker whose lease ran out), now leased to `worker`."""
    rows = db.run("build_claim", {"worker": worker, "lease_s": lease_s})
    if not rows:
        return None
    build_id, number, ids, sigs, labels, attempts = rows[0]
    return Batch(build_id, int(number), list(ids), list(sigs), list(labels), int(attempts))


def mark_done(db: PgDatabase, batch: Batch, worker: str, result: dict[str, Any]) -> None:
    """Mark `batch` done with its counts; LeaseLost when another worker holds it now (call it inside
    the transaction that wrote the batch, so that the writes roll back with it)."""
    if not db.run(
        "build_done",
        {"build_id": batch.build_id, "batch_no": batch.number, "worker": worker, "result": json.dumps(result)},
    ):
        raise LeaseLost(
            f"batch {batch.number} of build {batch.build_id} was taken over by another worker (its lease ran out)"
        )


def mark_failed(db: PgDatabase, batch: Batch, worker: str, error: str) -> None:
    """Record why `batch` cannot be built."""
    db.run("build_failed", {"build_id": batch.build_id, "batch_no": batch.number, "worker": worker, "error": error})


class Heartbeat:
    """A thread on its own connection that extends the leases of `worker`'s batches every lease/3 s."""

    def __init__(self, dsn: str, schema: str, worker: str, lease_s: float = LEASE_S) -> None:
        self.db = PgDatabase(dsn, schema=schema)
        self.worker, self.lease_s = worker, lease_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="kgqa-build-heartbeat", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self.db.close()

    def _beat(self) -> None:
        while not self._stop.wait(self.lease_s / 3):
            try:
                self.db.run("build_heartbeat", {"worker": self.worker, "lease_s": self.lease_s})
            except StoreError:
                pass  # the lease runs out and another worker takes the batch
