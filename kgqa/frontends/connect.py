"""Which answers a user's own DuckDB or Kùzu connection gets: those of a running `kgqa serve` for the
database when there is one, else those of a read-only workspace in this process."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from kgqa.config import RetrievalParams, Settings, serve_token
from kgqa.frontends.service import QuestionService


def front_end_settings(db: str | os.PathLike[str] | None, *, store: str | None = None,
                       pg_dsn: str | None = None, index: str | None = None) -> Settings:
    """Settings for a front end: explicit values, then KGQA_* variables, then defaults."""
    return Settings.from_env(Path(db) if db is not None else None, store=store, pg_dsn=pg_dsn, index=index)


def question_service(settings: Settings, open_workspace: Callable[[], object], params: RetrievalParams | None,
                     *, llm: str = "offline", use_service: bool = True) -> QuestionService:
    """The running service's answers when one serves this database (and store), else `open_workspace`'s."""
    if use_service:
        from kgqa.service.client import find_service

        client = find_service(settings.db_path, serve_token(), settings.store)
        if client is not None:
            from kgqa.frontends.remote import ServiceQuestions

            return ServiceQuestions(client, params, llm=llm)
    return QuestionService(open_workspace, params, llm=llm)  # type: ignore[arg-type]
