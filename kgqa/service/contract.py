"""The service's error replies in its OpenAPI schema: every status it can send, with the one error shape
`{"error": {"type", "message", "field"?, "details"?}}` (kgqa/service/errors.py), so that a client generated
from /openapi.json knows them all. tests/integration/test_contract.py checks the schema against the running
service with schemathesis (no 5xx, no undocumented status)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class ErrorDetail(BaseModel):
    """What went wrong: `type` is the library's exception class (or ValidationError, Busy, ...)."""

    type: str
    message: str
    field: str | None = None
    details: list[dict[str, Any]] | None = None


class ErrorReply(BaseModel):
    """Every non-2xx reply of the service."""

    error: ErrorDetail


#: Each status the service may send and when; some apply to a few endpoints only (the text says which).
ERROR_STATUSES: dict[int, str] = {
    401: "A token is set and the request lacks it (every endpoint but /v1/health, /v1/ready, /v1/live).",
    403: "No token is set and the Host header is not a loopback name (HostNotAllowed).",
    404: "An unknown entity (topic entity, entity id, a triple to delete), or an unknown path.",
    405: "The path does not take this method.",
    413: "The request body is larger than the service's limit (8 MiB).",
    409: "No index, an index built with another model, or an index that cannot answer yet.",
    422: "A field fails validation (the first bad field is `field`), or the body is not UTF-8 JSON.",
    500: "An unexpected error; the service logs it and goes on.",
    502: "The LLM provider failed (LLM mode).",
    503: "Busy (every worker busy and the queue full), the database held, or Postgres unreachable (Retry-After).",
    504: "The question ran past its time budget (KGQA_QUESTION_TIMEOUT).",
}


def error_responses() -> dict[int | str, dict[str, Any]]:
    """The `responses` of every operation (FastAPI(responses=...))."""
    return {status: {"model": ErrorReply, "description": text} for status, text in sorted(ERROR_STATUSES.items())}
