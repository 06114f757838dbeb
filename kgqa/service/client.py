"""The client of a running `kgqa serve`: found through the state file beside the database, checked for
liveness, spoken to over HTTP with the standard library (nothing heavy is imported on this path)."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from kgqa import errors
from kgqa.config import serve_token
from kgqa.errors import KgqaError, ServiceUnavailableError
from kgqa.processes import pid_alive
from kgqa.serve_state import ServiceState, read_state, token_hint
from kgqa.types import Answer, RankedHub, Source

#: Seconds a liveness check may take before the service is taken as absent.
HEALTH_TIMEOUT_S = 0.5
#: Seconds one question may take (LLM mode can be slow).
REQUEST_TIMEOUT_S = 600.0
#: Triples one `POST /v1/triples` may add or delete (each list); the CLI sends more in batches.
MAX_TRIPLES = 10_000


class ServiceClient:
    """Sends requests to one service; library errors in its replies are raised as the same types."""

    def __init__(self, state: ServiceState, token: str | None = None) -> None:
        self.state = state
        self.token = token

    @property
    def url(self) -> str:
        """The service's base URL."""
        return self.state.url

    def health(self, timeout: float = HEALTH_TIMEOUT_S) -> dict[str, Any]:
        """GET /v1/health."""
        return self._request("GET", "/v1/health", None, timeout)

    def ask(self, question: str, options: dict[str, Any]) -> dict[str, Any]:
        """POST /v1/ask: the answer as `kgqa ask --json` prints it, plus `served_by`."""
        return self._request("POST", "/v1/ask", {"question": question, **options}, REQUEST_TIMEOUT_S)

    def retrieve(self, question: str, options: dict[str, Any]) -> dict[str, Any]:
        """POST /v1/retrieve: triples and hubs only."""
        return self._request("POST", "/v1/retrieve", {"question": question, **options}, REQUEST_TIMEOUT_S)

    def triples(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST /v1/triples: add and delete triples, the touched hubs rebuilt (kgqa/service/writes.py)."""
        return self._request("POST", "/v1/triples", body, REQUEST_TIMEOUT_S)

    def index_update(self, dirty: bool) -> dict[str, Any]:
        """POST /v1/index/update: bring the index in step with the graph (`kgqa index update`)."""
        return self._request("POST", "/v1/index/update", {"dirty": dirty}, REQUEST_TIMEOUT_S)

    def _request(self, method: str, path: str, body: dict[str, Any] | None, timeout: float) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            raise _error_from_reply(exc.code, exc.read(), self.url) from None
        except (OSError, ValueError) as exc:  # refused, reset, timed out, not JSON
            raise ServiceUnavailableError(f"the service at {self.url} did not answer: {exc}") from None


def _error_from_reply(status: int, raw: bytes, url: str) -> KgqaError:
    """The library error a service's error reply stands for (its `error.type`), with its message."""
    try:
        err = json.loads(raw).get("error", {})
        kind, message = str(err.get("type", "")), str(err.get("message", ""))
    except (ValueError, AttributeError):
        kind, message = "", raw.decode("utf-8", "replace")[:200]
    if status in (401, 403, 503):
        return ServiceUnavailableError(f"the service at {url} answered {status}: {message}")
    cls = getattr(errors, kind, None)
    if isinstance(cls, type) and issubclass(cls, KgqaError) and cls is not ServiceUnavailableError:
        return cls(message)
    if status == 422:
        return errors.InputError(message)
    return KgqaError(f"the service at {url} answered {status}: {message}")


def find_service(
    db_path: str | os.PathLike[str], token: str | None = None, store: str | None = None
) -> ServiceClient | None:
    """A client of the live service for this database (and index store, when given), or None: no state
    file, its process gone, or no healthy answer within HEALTH_TIMEOUT_S from a service of this database."""
    state = read_state(db_path)
    if state is None or not pid_alive(state.pid):
        return None
    client = ServiceClient(state, token)
    try:
        health = client.health()
    except KgqaError:
        return None
    if health.get("db_path") != state.db_path or health.get("pid") != state.pid:
        return None
    if store is not None and health.get("store") != store:
        return None
    if state.token_required and token_hint(token) != state.token_hint:
        raise ServiceUnavailableError(
            f"the service at {state.url} needs a bearer token: set KGQA_SERVE_TOKEN to its --token (or use --no-server)"
        )
    return client


def ask_running_service(
    db_path: str | os.PathLike[str],
    question: str,
    options: dict[str, Any],
    note: Callable[[str], None],
    *,
    store: str | None = None,
    endpoint: str = "ask",
) -> dict[str, Any] | None:
    """The reply of the live service for this database, or None when there is none or it cannot take the
    question now (`note` says why; the caller answers in-process). Library errors in the reply are raised."""
    try:
        client = find_service(db_path, serve_token(), store)
        if client is None:
            return None
        return client.ask(question, options) if endpoint == "ask" else client.retrieve(question, options)
    except ServiceUnavailableError as exc:
        note(f"note: {exc}; answering in-process")
        return None


def service_for_writes(db_path: str | os.PathLike[str]) -> ServiceClient | None:
    """The live service holding this database, to send a change to, or None when none runs. A service
    that runs but cannot be used (it needs a token the client lacks) is an error: the database is held,
    so the change cannot be made in-process either."""
    return find_service(db_path, serve_token())


def answer_from_reply(reply: dict[str, Any]) -> Answer:
    """The Answer a service's (or `ask --json`'s) reply describes."""
    names = {f.name for f in fields(Answer)}
    values = {k: v for k, v in reply.items() if k in names}
    values["sources"] = [Source.from_dict(s) for s in reply.get("sources", [])]
    values["hubs"] = [RankedHub.from_dict(h) for h in reply.get("hubs", [])]
    return Answer(**values)
