"""The Host-header guard of a service without a token: only loopback host names (`localhost`,
`*.localhost`, 127.0.0.0/8, `::1`) are answered, so a web page cannot reach a loopback service through
DNS rebinding (its requests carry the attacker's host name) and read or, through `POST /v1/triples`,
change the graph. With a token every endpoint but the health checks needs it, writes included, and any
host name is accepted."""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

#: Open whatever the Host header: load balancers probe these by IP or by an internal name.
OPEN_PATHS = ("/v1/live", "/v1/ready", "/v1/health")


def host_name(header: str) -> str:
    """The host name of a Host header, without its port (and an IPv6 literal without brackets)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header[1:]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def is_loopback_name(name: str) -> bool:
    """Whether `name` can only mean this machine."""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def add_host_guard(app: FastAPI, token: str | None, on_refused: Callable[[], None]) -> None:
    """Without a token: 403 for a request whose Host header is not a loopback name (`on_refused` counts it)."""
    if token is not None:
        return

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        header = request.headers.get("host")
        if header is None or request.url.path in OPEN_PATHS or is_loopback_name(host_name(header)):
            return await call_next(request)
        on_refused()
        return JSONResponse(
            {
                "error": {
                    "type": "HostNotAllowed",
                    "message": f"Host '{header}' is not a loopback name: without --token this service answers only "
                    "requests to localhost or 127.0.0.1 (start it with --token to serve other host names)",
                }
            },
            status_code=403,
        )
