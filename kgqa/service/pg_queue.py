"""The Postgres question queue worker of `kgqa serve` (pgvector store): takes questions from
`kgqa.queue` (sql/postgres/040_queue.sql) with FOR UPDATE SKIP LOCKED, answers them with the service's
workspaces and writes the reply back; a heartbeat keeps its row in `kgqa.workers` and its lease."""

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
)
from kgqa.postgres.database import PgDatabase
from kgqa.retrieval.options import AskOptions, params_from_options

#: Seconds between heartbeats; a question's lease lasts LEASE_S past the last one.
HEARTBEAT_S = 1.0
LEASE_S = 10.0
#: Seconds a worker waits for a NOTIFY before looking at the queue again.
IDLE_WAIT_S = 1.0
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
        db = PgDatabase(self.dsn)
        try:
            while not self._stop.wait(HEARTBEAT_S):
                try:
                    self._heartbeat(db)
                except KgqaError as exc:
                    self.info(f"queue heartbeat failed: {exc}")
        finally:
            db.close()

    def _work(self) -> None:
        db = PgDatabase(self.dsn)
        try:
            db.run("queue_listen")
            while not self._stop.is_set():
                try:
                    if not self._take_one(db):
                        for _ in db.conn.notifies(timeout=IDLE_WAIT_S, stop_after=1):
                            pass
                except KgqaError as exc:
                    self.info(f"queue worker: {exc}")
                    self._stop.wait(IDLE_WAIT_S)
        finally:
            db.close()

    def _take_one(self, db: PgDatabase) -> bool:
        """Answer the oldest open question; False when there is none."""
        rows = db.run("queue_claim", {"index_name": self.index, "worker": self.worker_id, "lease_s": LEASE_S})
        if not rows:
            return False
        qid, question, options = rows[0]
        try:
            reply = self.answer(question, AskOptions(**json.loads(options)))
        except (KgqaError, TypeError, ValueError) as exc:
            db.run(
                "queue_failed", {"id": qid, "worker": self.worker_id, "error": str(exc), "sqlstate": sqlstate_of(exc)}
            )
            return True
        db.run("queue_done", {"id": qid, "worker": self.worker_id, "reply": json.dumps(reply, default=str)})
        self.answered += 1
        return True


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
