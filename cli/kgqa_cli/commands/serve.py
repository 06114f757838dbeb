"""`kgqa serve`: answer questions over HTTP from one resident, read-only workspace (see docs/serve.md)."""

from __future__ import annotations

import click

from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import store_options


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on (loopback by default; elsewhere, give a --token).",
)
@click.option("--port", type=int, default=8750, show_default=True, help="TCP port (0: a free one).")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Questions answered at once (each worker holds its own read-only database connection).",
)
@click.option(
    "--queue",
    "queue_size",
    type=click.IntRange(min=0),
    default=16,
    show_default=True,
    help="Requests that may wait for a worker; beyond that the service answers 503 with Retry-After.",
)
@click.option(
    "--token",
    default=None,
    metavar="TOKEN",
    help="Require 'Authorization: Bearer TOKEN' (default: $KGQA_SERVE_TOKEN; none: no token).",
)
@store_options
@pass_state
def serve(state: CliState, host: str, port: int, workers: int, queue_size: int, token: str | None) -> None:
    """Keep the database open read-only with the model loaded and answer over HTTP: POST /v1/ask,
    POST /v1/retrieve, GET /v1/health, GET /v1/stats, GET /openapi.json. `kgqa ask` on the same
    database sends its questions here. SIGTERM or Ctrl-C finishes the requests in flight and stops."""
    from kgqa.config import serve_token
    from kgqa.service.server import serve as run_service

    run_service(
        state.settings(),
        host=host,
        port=port,
        workers=workers,
        queue_size=queue_size,
        token=serve_token(token),
        info=state.info,
    )
