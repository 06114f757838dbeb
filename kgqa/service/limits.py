"""Limits that keep the service up under abuse: request bodies over MAX_BODY_BYTES are refused with 413
before they are read whole (a declared Content-Length at once; a chunked body as soon as it passes the
cap), and uvicorn's connection limits (`uvicorn_limits`): idle keep-alive connections are closed after
a few seconds, headers sent too slowly get 408 (kgqa/service/protocol.py), the longest-idle connection
makes room near the descriptor limit, and past LIMIT_CONCURRENCY requests at once new ones get 503."""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The largest request body (bytes): 10,000 triples of a POST /v1/triples fit several times over.
MAX_BODY_BYTES = 8 * 1024 * 1024
#: Seconds an idle keep-alive connection stays open.
KEEP_ALIVE_S = 5
#: Connections and tasks at once before new connections get 503.
LIMIT_CONCURRENCY = 512
#: The listen backlog, and so the connections asyncio accepts in one go.
BACKLOG = 64


def too_large_message(limit: int = MAX_BODY_BYTES) -> str:
    """The message of a 413."""
    return f"the request body is larger than {limit // (1024 * 1024)} MiB, the service's limit"


class BodyLimit:
    """ASGI middleware: 413 for a body over `limit` bytes, without reading it whole."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await _reply_413(send, self.limit)
            return
        seen, refused = 0, False

        async def limited() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit and not refused:  # a chunked body past the cap: answer, stop reading
                    refused = True
                    await _reply_413(send, self.limit)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if not refused:  # after the 413, whatever the app still says is dropped
                await send(message)

        try:
            await self.app(scope, limited, guarded_send)
        except Exception:
            if not refused:
                raise


async def _reply_413(send: Send, limit: int) -> None:
    body = json.dumps({"error": {"type": "PayloadTooLarge", "message": too_large_message(limit)}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def uvicorn_limits() -> dict[str, Any]:
    """The uvicorn.Config arguments that bound idle and slow connections and concurrency (the protocol:
    kgqa/service/protocol.py, a header timeout and idle connections evicted near the descriptor limit)."""
    from kgqa.service.protocol import GuardedH11Protocol

    return {
        "timeout_keep_alive": KEEP_ALIVE_S,
        "limit_concurrency": LIMIT_CONCURRENCY,
        "backlog": BACKLOG,
        "http": GuardedH11Protocol,
    }
