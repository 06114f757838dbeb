"""The Postgres question queue worker of `kgqa serve` (pgvector store): takes questions from
`kgqa.queue` (sql/postgres/040_queue.sql) with FOR UPDATE SKIP LOCKED, answers them with the service's
workspaces and writes the reply back; a heartbeat keeps its row in `kgqa.workers` and its lease.

Postgres restarts are survived, not fatal: when the connection breaks, the worker and the heartbeat
reconnect with a backoff (BACKOFF_S doubling up to BACKOFF_MAX_S) and LISTEN again; a reply that could
not be written is written once the server is back, so a question is neither lost nor answered twice."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Callable
from itertools import count
from typing import Any

from kgqa.errors import (
    ConfigError,
    EntityNotFoundError,
    HubIndexError,
    InputError,
    KgqaError,
    QuestionTimeoutError,
    StoreError,
)
from kgqa.postgres.database import PgDatabase
from kgqa.retrieval.options import AskOptions, params_from_options

#: Seconds between heartbeats; a question's lease lasts LEASE_S past the last one.
HEARTBEAT_S = 1.0
LEASE_S = 10.0
#: Seconds a worker waits for a NOTIFY before looking at the queue again.
IDLE_WAIT_S = 1.0
#: Reconnection backoff: the first wait, doubled per failed try up to the last (seconds).
BACKOFF_S = 0.25
BACKOFF_MAX_S = 2.0
#: Seconds a worker's connection attempt may take (a down server must not stall the backoff).
CONNECT_TIMEOUT_S = 3
#: Times a question is tried when the store fails while answering it (then it fails with the error).
HELD_TRIES = 3
_numbers = count(1)

#: SQLSTATE of a failed question, by library error (the rest: 58000 system_error).
SQLSTATES: tuple[tuple[type[KgqaError], str], ...] = (
    (InputError, "22023"),
    (ConfigError, "22023"),
    (EntityNotFoundError, "22023"),
    (HubIndexError, "55000"),
    (QuestionTimeoutError, "57014"),
)


def sqlstate_of(exc: BaseException) -> str:
    """The SQLSTATE kgqa.wait raises for a question that failed with `exc`."""
    return next((code for cls, code in SQLSTATES if isinstance(exc, cls)), "58000")


Answerer = Callable[[str, AskOptions], dict[str, Any]]


class Backoff:
    """Waits between reconnection tries, and one log line per outage (not one per try)."""

    def __init__(self, what: str, info: Callable[[str], None]) -> None:
        self.what, self.info = what, info
        self.failures = 0

    def failed(self, exc: BaseException) -> float:
        """Record a failure; the seconds to wait before the next try."""
        if self.failures == 0:
            self.info(f"{self.what}: Postgres unreachable ({exc}); reconnecting")
        self.failures += 1
        return min(BACKOFF_S * 2 ** (self.failures - 1), BACKOFF_MAX_S)

    def succeeded(self) -> None:
        """A try worked: say so once if there was an outage, and start the next one from the first wait."""
        if self.failures:
            self.info(
                f"{self.what}: reconnected to Postgres after {self.failures} failed tr{'ies' if self.failures > 1 else 'y'}"
            )
        self.failures = 0


class QueueWorker:
    """One worker thread on the queue of index `index`, plus its heartbeat thread."""

    def __init__(self, dsn: str, index: str, answer: Answerer, *, info: Callable[[str], None] = print) -> None:
        self.dsn, self.index, self.answer, self.info = dsn, index, answer, info
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{next(_numbers)}"
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._work, name="kgqa-queue", daemon=True),
            threading.Thread(target=self._beat, name="kgqa-heartbeat", daemon=True),
        ]
        self.answered = 0
        self._held: tuple[int, str, str] | None = None  # the question taken and not yet settled
        self._tries = 0
        self._unsent: tuple[str, dict[str, Any]] | None = None  # its outcome, to write once Postgres is back

    def start(self) -> None:
        """Beat once (so CALL kgqa.ask sees a live worker at once), then start both threads."""
        self._heartbeat(db := PgDatabase(self.dsn))
        db.close()
        for t in self._threads:
            t.start()

    def stop(self) -> None:
        """Stop taking questions, finish the current one, leave kgqa.workers."""
        self._stop.set()
        for t in self._threads:
            t.join(timeout=60)
        db = PgDatabase(self.dsn)
        try:
            db.run("worker_leave", {"worker": self.worker_id})
        finally:
            db.close()

    def _heartbeat(self, db: PgDatabase) -> None:
        db.run(
            "worker_heartbeat",
            {"worker": self.worker_id, "index_name": self.index, "pid": os.getpid(), "lease_s": LEASE_S},
        )

    def _beat(self) -> None:
        db = PgDatabase(self.dsn, connect_timeout=CONNECT_TIMEOUT_S)
        backoff = Backoff("queue heartbeat", self.info)
        try:
            while not self._stop.wait(HEARTBEAT_S):
                try:
                    if not db.scalar("index_registered", {"name": self.index}):
                        self._index_dropped(db)
                        return
                    self._heartbeat(db)
                    backoff.succeeded()
                except KgqaError as exc:
                    db.close()
                    self._stop.wait(max(0.0, backoff.failed(exc) - HEARTBEAT_S))
        finally:
            db.close()

    def _index_dropped(self, db: PgDatabase) -> None:
        """The index is gone from Postgres (`kgqa index drop`): stop working its queue, say why and what to do."""
        self._stop.set()
        db.run("worker_leave", {"worker": self.worker_id})
        self.info(
            f"error: index '{self.index}' was dropped from Postgres; this service no longer works its question "
            f"queue (CALL kgqa.ask gets 'no worker'). Build it again (`kgqa --index {self.index} index sync --to "
            "pgvector`, then `kgqa sql install`) and restart `kgqa serve`"
        )

    def _work(self) -> None:
        db = PgDatabase(self.dsn, connect_timeout=CONNECT_TIMEOUT_S)
        backoff = Backoff("queue worker", self.info)
        listening = False
        try:
            while not self._stop.is_set():
                try:
                    if not listening:  # (again) after a reconnection: LISTEN, then the reply left unsent
                        db.run("queue_listen")
                        listening = True
                        self._send_unsent(db)
                        backoff.succeeded()
                    if not self._take_one(db):
                        db.wait_notify(IDLE_WAIT_S)
                except StoreError as exc:  # the server went away (or a query failed): a new connection
                    db.close()
                    listening = False
                    self._stop.wait(backoff.failed(exc))
                except KgqaError as exc:
                    self.info(f"queue worker: {exc}")
                    self._stop.wait(IDLE_WAIT_S)
        finally:
            db.close()

    def _send_unsent(self, db: PgDatabase) -> None:
        """Write the outcome of the question this worker holds (kept when Postgres is away)."""
        if self._unsent is not None:
            name, params = self._unsent
            db.run(name, params)
            self._unsent = self._held = None
            self.answered += name == "queue_done"

    def _take_one(self, db: PgDatabase) -> bool:
        """Answer the oldest open question (or the one still held from before a reconnection); False
        when there is none. A StoreError leaves the question held, to be answered after reconnecting."""
        if self._held is None:
            rows = db.run("queue_claim", {"index_name": self.index, "worker": self.worker_id, "lease_s": LEASE_S})
            if not rows:
                return False
            self._held, self._tries = rows[0], 0
        qid, question, options = self._held
        self._tries += 1
        try:
            reply = self.answer(question, AskOptions(**json.loads(options)))
        except StoreError as exc:
            if self._tries < HELD_TRIES:
                raise  # Postgres went away mid-question: reconnect, then answer it again
            self._unsent = ("queue_failed", self._failure(qid, exc))
        except (KgqaError, TypeError, ValueError) as exc:
            self._unsent = ("queue_failed", self._failure(qid, exc))
        else:
            self._unsent = (
                "queue_done",
                {"id": qid, "worker": self.worker_id, "reply": json.dumps(reply, default=str)},
            )
        self._send_unsent(db)  # a StoreError here leaves it for after the reconnection
        return True

    def _failure(self, qid: int, exc: BaseException) -> dict[str, Any]:
        return {"id": qid, "worker": self.worker_id, "error": str(exc), "sqlstate": sqlstate_of(exc)}


def ask_with(workspace_call: Callable[[Callable[[Any], Any]], Any]) -> Answerer:
    """An Answerer running each question on a workspace of the service's pool."""

    def answer(question: str, options: AskOptions) -> dict[str, Any]:
        return workspace_call(
            lambda ws: ws.ask(
                question,
                params_from_options(options),
                llm=options.llm,
                retriever=options.retriever,
                token_budget=options.token_budget,
            ).as_dict()
        )

    return answer
