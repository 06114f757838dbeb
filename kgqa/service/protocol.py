"""uvicorn's h11 protocol with two guards against clients that hold connections without asking:

- a header timeout: a connection whose request line and headers are not complete HEADER_TIMEOUT_S after
  it opened (or after its last response) gets 408 and is closed, however slowly it trickles bytes in;
- a connection cap below the descriptor limit: past `connection_cap()` open connections, the connection
  that has waited longest without a request is closed to make room, so a real request always finds a
  descriptor and a slot under LIMIT_CONCURRENCY (idle sockets cannot lock clients out)."""

from __future__ import annotations

import asyncio
import resource
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from kgqa.service.limits import BACKLOG, LIMIT_CONCURRENCY

#: Seconds a connection may take to send a request's line and headers.
HEADER_TIMEOUT_S = 10.0
#: Descriptors kept free of connections (at least; an eighth of the limit where that is more): one accept
#: batch (asyncio accepts up to BACKLOG connections before any of them is seen here) plus the service's
#: own files, model and Postgres connections (about 15-30).
FD_RESERVE = BACKLOG + 32

_TIMEOUT_BODY = f"the request's headers took longer than {HEADER_TIMEOUT_S:g} s\n".encode()
TIMEOUT_REPLY = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
    + f"content-length: {len(_TIMEOUT_BODY)}\r\n\r\n".encode()
    + _TIMEOUT_BODY
)


def connection_cap() -> int:
    """Open connections at most: below uvicorn's concurrency limit and the soft descriptor limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    by_fds = soft - max(FD_RESERVE, soft // 8) if soft != resource.RLIM_INFINITY else LIMIT_CONCURRENCY
    return max(8, min(LIMIT_CONCURRENCY - 8, by_fds))


class GuardedH11Protocol(H11Protocol):
    """H11Protocol with the header timeout and the idle-connection eviction of this module."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._waiting_since = time.monotonic()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        _make_room(self.connections, connection_cap() - 1)
        super().connection_made(transport)
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if not self.awaiting_request():
            self._cancel_header_timer()  # the request's headers are in

    def on_response_complete(self) -> None:
        self._arm_header_timer()  # before the next pipelined request is read, which cancels it
        super().on_response_complete()

    def awaiting_request(self) -> bool:
        """Whether this connection waits for (the rest of) a request's headers, with no response owed."""
        return self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._waiting_since = time.monotonic()
        self._header_timer = self.loop.call_later(HEADER_TIMEOUT_S, self._header_timeout)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        if self.awaiting_request() and not self.transport.is_closing():
            if self.conn.our_state is h11.IDLE:
                self.transport.write(TIMEOUT_REPLY)
            self.transport.close()


def _make_room(connections: set[Any], cap: int) -> None:
    """Close the connections that waited longest without a request until fewer than `cap` remain
    (connections with a request in flight are never closed)."""
    excess = len(connections) - cap + 1
    if excess <= 0:
        return
    idle = sorted(
        (c for c in connections if isinstance(c, GuardedH11Protocol) and c.awaiting_request()),
        key=lambda c: c._waiting_since,
    )
    for victim in idle[:excess]:
        victim.transport.close()
        connections.discard(victim)
