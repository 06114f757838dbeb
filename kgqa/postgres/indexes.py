"""Named indexes in one Postgres: each HubLink index lives in its own schema `kgqa_<name>`; the shared
`kgqa` schema holds the registry (`kgqa.indexes`) and the answers log (`kgqa.answers`, keyed by index).
The name comes from `--index` / KGQA_INDEX, else from the Kùzu database file's stem."""

from __future__ import annotations

import re

from kgqa.index_names import check_name, derived_name, index_name

__all__ = ["check_name", "derived_name", "index_name", "qualify", "schema_of"]

#: Objects of the shared `kgqa` schema; every other `kgqa.<object>` in a query belongs to one index.
SHARED = (
    "answers",
    "indexes",
    "queue",
    "workers",
    "resolve_index",
    "submit",
    "worker_alive",
    "reply",
    "wait",
    "ask",
    "ask_id",
    "check_k",
    "retrieve",
)
#: `kgqa.hubs(` (a call, no space) is the shared text-in function; `kgqa.hubs` otherwise is an index's table.
SHARED_CALLS = ("hubs",)
_INDEX_OBJECT = re.compile(rf"\bkgqa\.(?!(?:{'|'.join(SHARED)})\b|(?:{'|'.join(SHARED_CALLS)})\()")


def schema_of(name: str) -> str:
    """The Postgres schema holding index `name`."""
    return f"kgqa_{check_name(name)}"


def qualify(text: str, schema: str) -> str:
    """A query or script with its per-index objects (`kgqa.hubs`, ...) moved into `schema`; the shared
    objects (`kgqa.answers`, `kgqa.indexes`) stay. `schema` is a validated identifier."""
    return _INDEX_OBJECT.sub(f"{schema}.", text)
