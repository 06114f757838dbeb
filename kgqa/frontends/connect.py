"""Which answers a user's own DuckDB or Kùzu connection gets: those of a running `kgqa serve` for the
database when there is one, else those of a read-only workspace in this process."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kgqa.config import RetrievalParams, Settings, serve_token
from kgqa.frontends.service import QuestionService

if TYPE_CHECKING:
    from kgqa.api import Workspace


def front_end_settings(
    db: str | os.PathLike[str] | None, *, store: str | None = None, pg_dsn: str | None = None, index: str | None = None
) -> Settings:
    """Settings for a front end: explicit values, then KGQA_* variables, then defaults."""
    return Settings.from_env(Path(db) if db is not None else None, store=store, pg_dsn=pg_dsn, index=index)


def question_service(
    settings: Settings,
    open_workspace: Callable[[], Workspace],
    params: RetrievalParams | None,
    *,
    llm: str = "offline",
    use_service: bool = True,
    note: Callable[[str], None] = lambda _: None,
) -> QuestionService:
    """A QuestionService sending questions to the running `kgqa serve` of `settings`' database (and store)
    when there is one, else answering with `open_workspace`'s workspace."""
    client = None
    if use_service:
        from kgqa.errors import ServiceUnavailableError
        from kgqa.service.client import find_service

        try:
            client = find_service(settings.service_path, serve_token(), settings.store)
        except ServiceUnavailableError as exc:
            note(f"note: {exc}; answering in-process")
    return QuestionService(open_workspace, params, llm=llm, client=client, note=note)
