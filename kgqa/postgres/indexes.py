"""Named indexes in one Postgres: each HubLink index lives in its own schema `kgqa_<name>`; the shared
`kgqa` schema holds the registry (`kgqa.indexes`) and the answers log (`kgqa.answers`, keyed by index).
The name comes from `--index` / KGQA_INDEX, else from the Kùzu database file's stem."""

from __future__ import annotations

import re
from pathlib import Path

from kgqa.errors import ConfigError

#: What an index name may look like (it becomes part of a Postgres schema name).
NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
#: Objects of the shared `kgqa` schema; every other `kgqa.<object>` in a query belongs to one index.
SHARED = ("answers", "indexes", "queue", "workers", "resolve_index", "submit", "worker_alive", "reply", "wait",
          "ask", "ask_id", "check_k", "retrieve")
#: `kgqa.hubs(` (a call, no space) is the shared text-in function; `kgqa.hubs` otherwise is an index's table.
SHARED_CALLS = ("hubs",)
_INDEX_OBJECT = re.compile(rf"\bkgqa\.(?!(?:{'|'.join(SHARED)})\b|(?:{'|'.join(SHARED_CALLS)})\()")


def check_name(name: str) -> str:
    """An explicit index name, validated."""
    if not NAME.match(name or ""):
        raise ConfigError(f"invalid index name {name!r}: use 1-40 characters a-z, 0-9 and _, "
                          "starting with a letter (e.g. --index orkg)")
    return name


def derived_name(db_path: Path | str) -> str:
    """The default index name of a database path: its file stem, lower case, other characters as `_`."""
    stem = Path(db_path).name.rsplit(".", 1)[0] or Path(db_path).name
    name = re.sub(r"[^a-z0-9_]+", "_", stem.lower()).strip("_")[:40] or "default"
    return name if name[0].isalpha() else f"g_{name}"[:40]


def index_name(explicit: str | None, db_path: Path | str) -> str:
    """The index name to use: the explicit one (validated) or the one derived from the database path."""
    return check_name(explicit) if explicit else derived_name(db_path)


def schema_of(name: str) -> str:
    """The Postgres schema holding index `name`."""
    return f"kgqa_{check_name(name)}"


def qualify(text: str, schema: str) -> str:
    """A query or script with its per-index objects (`kgqa.hubs`, ...) moved into `schema`; the shared
    objects (`kgqa.answers`, `kgqa.indexes`) stay. `schema` is a validated identifier."""
    return _INDEX_OBJECT.sub(f"{schema}.", text)
