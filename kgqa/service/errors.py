"""Library errors and validation failures as HTTP replies: status code and a JSON body
`{"error": {"type", "message", "field"?}}`. The type is the library's exception class name, so a
client can raise the same error (kgqa/service/client.py)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi.responses import JSONResponse

from kgqa import errors as e

log = logging.getLogger("kgqa.service")

#: Most specific first: the first class the error is an instance of decides its status.
STATUS: list[tuple[type[BaseException], int]] = [
    (e.AmbiguousEntityError, 422),  # the caller must say which entity: a bad field value
    (e.EntityNotFoundError, 404),
    (e.IndexMissingError, 409),
    (e.IndexMismatchError, 409),
    (e.HubIndexError, 409),
    (e.InputError, 422),
    (e.ConfigError, 422),
    (e.StoreBusyError, 503),
    (e.StoreUnavailableError, 503),  # Postgres down or restarting: retry (docs/serve.md#restarts)
    (e.QuestionTimeoutError, 504),  # the question's time budget (KGQA_QUESTION_TIMEOUT) ran out
    (e.TokenBudgetExceeded, 422),
    (e.LLMError, 502),
    (e.KgqaError, 500),
]

#: Which request field an error is about, when the library does not say.
FIELD_OF: dict[type[BaseException], str] = {e.EntityNotFoundError: "topic_entity"}


def status_for(exc: BaseException) -> int:
    """The HTTP status of a library error (500 for anything unexpected)."""
    return next((status for cls, status in STATUS if isinstance(exc, cls)), 500)


def error_reply(exc: BaseException, *, question: bool = True) -> JSONResponse:
    """The JSON reply for an exception raised while answering (`question`: while answering a question,
    so an unknown entity is the request's topic entity)."""
    status = status_for(exc)
    if not isinstance(exc, e.KgqaError):
        log.exception("unexpected error while answering")
        body: dict[str, Any] = {"type": "InternalError", "message": f"{type(exc).__name__}: {exc}"}
    else:
        body = {"type": type(exc).__name__, "message": str(exc)}
        field = getattr(exc, "field", None) or (
            next((f for cls, f in FIELD_OF.items() if isinstance(exc, cls)), None) if question else None
        )
        if field:
            body["field"] = field
    headers = {"Retry-After": "1"} if status == 503 else None
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def validation_reply(problems: Sequence[Any]) -> JSONResponse:
    """422 for a request body that fails validation, naming the first bad field."""
    details = [
        {"field": ".".join(str(p) for p in pr.get("loc", ())[1:]) or "body", "message": pr.get("msg", "")}
        for pr in problems
    ]
    first = details[0] if details else {"field": "body", "message": "invalid request"}
    return JSONResponse(
        {
            "error": {
                "type": "ValidationError",
                "field": first["field"],
                "message": f"field '{first['field']}': {first['message']}",
                "details": details,
            }
        },
        status_code=422,
    )
