"""Named indexes in one Postgres: each HubLink index lives in its own schema `kgqa_<name>`; the shared
`kgqa` schema holds the registry (`kgqa.indexes`) and the answers log (`kgqa.answers`, keyed by index).
The name comes from `--index` / KGQA_INDEX, else from the Kùzu database file's stem."""

from __future__ import annotations

import re

from kgqa.index_names import check_name, derived_name, index_name

__all__ = ["check_name", "derived_name", "index_name", "is_shared_script", "qualify", "schema_of"]

#: Tables of the shared `kgqa` schema; every other `kgqa.<object>` in a query belongs to one index.
SHARED = ("answers", "indexes", "queue", "workers")
_INDEX_OBJECT = re.compile(rf"\bkgqa\.(?!(?:{'|'.join(SHARED)})\b)")
#: The first line of an SQL layer script whose objects all live in the shared `kgqa` schema (the question
#: queue and its functions): it is installed as written, not moved into an index's schema.
SHARED_SCRIPT = "-- scope: shared"


def is_shared_script(text: str) -> bool:
    """Whether an SQL layer script creates only shared objects (its first line is SHARED_SCRIPT)."""
    return text.startswith(SHARED_SCRIPT)


def schema_of(name: str) -> str:
    """The Postgres schema holding index `name`."""
    return f"kgqa_{check_name(name)}"


def qualify(text: str, schema: str) -> str:
    """A query or script with its per-index objects (`kgqa.hubs`, ...) moved into `schema`; the shared
    objects (`kgqa.answers`, `kgqa.indexes`) stay. `schema` is a validated identifier."""
    return _INDEX_OBJECT.sub(f"{schema}.", text)
