"""Index names: the name an index has in a shared store (a Postgres schema `kgqa_<name>`, a row of
`kgqa.indexes`), from `--index` / KGQA_INDEX or else derived from the Kùzu database file's stem."""

from __future__ import annotations

import re
from pathlib import Path

from kgqa.errors import ConfigError

#: What an index name may look like (it becomes part of a Postgres schema name).
NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


def check_name(name: str) -> str:
    """An explicit index name, validated."""
    if not NAME.match(name or ""):
        raise ConfigError(
            f"invalid index name {name!r}: use 1-40 characters a-z, 0-9 and _, "
            "starting with a letter (e.g. --index orkg)"
        )
    return name


def derived_name(db_path: Path | str) -> str:
    """The default index name of a database path: its file stem, lower case, other characters as `_`."""
    stem = Path(db_path).name.rsplit(".", 1)[0] or Path(db_path).name
    name = re.sub(r"[^a-z0-9_]+", "_", stem.lower()).strip("_")[:40] or "default"
    return name if name[0].isalpha() else f"g_{name}"[:40]


def index_name(explicit: str | None, db_path: Path | str) -> str:
    """The index name to use: the explicit one (validated) or the one derived from the database path."""
    return check_name(explicit) if explicit else derived_name(db_path)
