"""Finds the query and schema files shipped with the package and loads them by name."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from kgqa.errors import ConfigError

_TOKEN = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
#: A catalog-name token, `{{name:src}}`: a table or property name read from the database's catalog.
_NAME_TOKEN = re.compile(r"\{\{\s*name:([a-z_]+)\s*\}\}")


class CatalogName(str):
    """A table or property name as the database's catalog lists it (kgqa/graph/mapping.py makes
    them from `CALL show_tables()` / `table_info` rows, never from user text). Spliced quoted."""

    def __new__(cls, value: str) -> CatalogName:
        if not value or "`" in value or "\x00" in value:
            raise ConfigError(f"unusable catalog name {value!r}")
        return super().__new__(cls, value)

    @property
    def quoted(self) -> str:
        """The name as a quoted Cypher identifier."""
        return f"`{self}`"


@dataclass(frozen=True)
class NamedQuery:
    """A query text loaded from a file, with the structural tokens it needs filled in."""

    name: str
    text: str


def _read(package: str, relative: str) -> str:
    ref = resources.files(package).joinpath(relative)
    if not ref.is_file():
        raise ConfigError(f"missing packaged file {package}/{relative}")
    return ref.read_text(encoding="utf-8")


@cache
def cypher_text(name: str) -> str:
    """The raw text of `procedures/kgqa_procedures/cypher/<name>.cypher`."""
    return _read("kgqa_procedures", f"cypher/{name}.cypher")


def fill_tokens(name: str, text: str, **structural: int) -> str:
    """Fill the integer structural tokens (`{{max_path_length}}`, `{{dim}}`) of a query or script.
    These are bounds and type sizes Kùzu cannot bind; every value travels as a `$parameter`."""
    needed = set(_TOKEN.findall(text))
    missing = needed - set(structural)
    if missing:
        raise ConfigError(f"{name} needs structural tokens {sorted(missing)}")
    for key, value in structural.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"structural token {key} of {name} must be a non-negative int, got {value!r}")
    return _TOKEN.sub(lambda m: str(int(structural[m.group(1)])), text)


def fill_names(name: str, text: str, names: dict[str, CatalogName]) -> str:
    """Fill the catalog-name tokens (`{{name:src}}`) of a query with quoted catalog names."""
    needed = set(_NAME_TOKEN.findall(text))
    missing = needed - set(names)
    if missing:
        raise ConfigError(f"{name} needs catalog names {sorted(missing)}")
    for key, value in names.items():
        if not isinstance(value, CatalogName):
            raise ConfigError(f"name token {key} of {name} must be a CatalogName, got {value!r}")
    return _NAME_TOKEN.sub(lambda m: names[m.group(1)].quoted, text)


def cypher(name: str, **structural: int) -> NamedQuery:
    """A named Cypher query, loaded by name, with its structural tokens filled in."""
    return NamedQuery(name, fill_tokens(name, cypher_text(name), **structural))


def cypher_on(name: str, names: dict[str, CatalogName]) -> NamedQuery:
    """A named Cypher query over a user's own tables, with the catalog names it needs spliced in."""
    return NamedQuery(name, fill_names(name, cypher_text(name), names))


def schema_scripts(kind: str) -> list[tuple[str, str]]:
    """The numbered schema scripts of `schema/<kind>/` as (migration name, text), in order."""
    folder = resources.files("kgqa_schema").joinpath(kind)
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith((".cypher", ".sql")))
    return [(f"{kind}/{n.rsplit('.', 1)[0]}", folder.joinpath(n).read_text(encoding="utf-8")) for n in names]


def all_cypher_names() -> list[str]:
    """Every named Cypher query shipped with the package (used by the EXPLAIN test)."""
    root = resources.files("kgqa_procedures").joinpath("cypher")
    out = []
    for area in sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.name):
        for f in sorted(area.iterdir(), key=lambda p: p.name):
            if f.name.endswith(".cypher"):
                out.append(f"{area.name}/{f.name[:-7]}")
    return out


@cache
def sql_query(name: str) -> NamedQuery:
    """A named Postgres query, `sql/postgres/queries/<name>.sql` (values travel as `%(name)s` parameters)."""
    return NamedQuery(f"sql/{name}", _read("kgqa_sql", f"postgres/queries/{name}.sql"))


def sql_scripts(dialect: str) -> list[tuple[str, str]]:
    """The numbered install scripts of `sql/<dialect>/` as (name, text), in order."""
    folder = resources.files("kgqa_sql").joinpath(dialect)
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".sql"))
    return [(f"sql/{dialect}/{n[:-4]}", folder.joinpath(n).read_text(encoding="utf-8")) for n in names]


def all_sql_query_names() -> list[str]:
    """Every named Postgres query shipped with the package (used by the parse test)."""
    folder = resources.files("kgqa_sql").joinpath("postgres", "queries")
    return sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".sql"))


def schema_file(kind: str, relative: str) -> tuple[str, str]:
    """One schema script that is not a numbered migration, e.g. `postgres`, `post_load/hnsw_cosine.sql`."""
    return f"{kind}/{relative.rsplit('.', 1)[0]}", _read("kgqa_schema", f"{kind}/{relative}")
