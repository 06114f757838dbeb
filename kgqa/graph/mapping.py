"""How a user's own Kùzu property graph reads as entities and triples: a mapping inferred from the
catalog (`CALL show_tables()`, `table_info`, `show_connection`), optionally shaped by a TOML file.

- a node table is a type; its primary key is the entity id (qualified `Table:key` only when the
  mapping says so, see `GraphMapping.qualified`); its label is the first of name/title/label;
- every other scalar property is a literal fact whose predicate is the property name made readable
  (`publicationYear` -> "publication year");
- every rel table is a predicate between its endpoints (every FROM/TO pair of a multi-pair table).

Unusable parts (a table without a primary key, a MAP/UNION/BLOB/STRUCT property, a name clash, a
table with the reserved `kgqa_` prefix) are skipped with one warning line each."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from kgqa.assets import CatalogName
from kgqa.errors import ConfigError
from kgqa.graph.own_prefix import LEGACY_NAMES
from kgqa.question.verbs import AGENT_NOUNS, agent_noun

#: Prefix reserved for HubLink's own tables in a user's database.
RESERVED_PREFIX = "kgqa_"
#: HubLink's own tables (created by its schema scripts); never part of a user's graph. All but the
#: triple layout's `Entity` and `Triple` (which are that layout's graph) carry the reserved prefix, so a
#: user's table may be named `Hub` or `Passage`; kgqa/graph/own_prefix.py upgrades older databases.
OWN_TABLES = frozenset({"Entity", "Triple"} | {RESERVED_PREFIX + name for name in LEGACY_NAMES})
#: Property names taken as the label, in order of preference.
LABEL_PROPERTIES = ("name", "title", "label")
_UNSUPPORTED = ("MAP", "UNION", "BLOB", "STRUCT", "RDF_VARIANT")
_ID_SCHEMES = ("plain", "qualified")


class CatalogReader(Protocol):
    """What inferring a mapping needs from a store: rows of one catalog call."""

    def catalog(self, call: str, table: str | None = None) -> list[list[Any]]: ...


@dataclass(frozen=True)
class NodeMap:
    """One node table read as entities of type `table`."""

    table: CatalogName
    key: CatalogName
    label: CatalogName | None
    facts: tuple[tuple[CatalogName, str], ...]  # (property, predicate label)
    literal: bool = False  # entities of this table are literal values (not hub roots)
    key_type: str = "STRING"

    def key_value(self, key: str) -> Any:
        """An id's key part as the primary key's type (None when it cannot be one)."""
        if self.key_type.upper().startswith(("INT", "SERIAL", "UINT")):
            return int(key) if re.fullmatch(r"-?\d+", key) else None
        return key


@dataclass(frozen=True)
class RelMap:
    """One rel table read as the predicate `predicate` between each of its (from, to) pairs."""

    table: CatalogName
    predicate: str
    pairs: tuple[tuple[CatalogName, CatalogName], ...]
    inverse: str | None = None  # the predicate read backwards (None: its doer noun or the source table's name)
    backwards: bool = True  # may be read backwards into a hub type (see GraphMapping.inverse_into)
    properties: tuple[tuple[CatalogName, str], ...] = ()  # (property, name) the edges carry as qualifiers
    text_properties: tuple[CatalogName, ...] = ()  # those of them that hold text (STRING)


@dataclass
class GraphMapping:
    """The whole mapping: node tables, rel tables, the id scheme and what was skipped."""

    nodes: dict[str, NodeMap]
    rels: dict[str, RelMap]
    qualified: bool = False
    warnings: list[str] = field(default_factory=list)
    source: str = "inferred from the catalog"
    #: Node tables (the hub types) whose incoming rel tables from other tables are also read
    #: backwards, so that what points at a hub root belongs to its hub: `Author -WROTE-> Paper`
    #: also reads `Paper -author-> Author`.
    inverse_into: frozenset[str] = frozenset()
    #: The user's own tables named like HubLink's (found before HubLink ever wrote to the database):
    #: an index build would write into them, so it refuses.
    clashes: tuple[str, ...] = ()

    def backward_readings(self) -> list[tuple[RelMap, CatalogName, CatalogName, str]]:
        """(rel, from table, to table, predicate) of every rel table pair read backwards: the pairs
        into an `inverse_into` table from a table that is not one. The predicate is the mapping's
        `inverse`, else the doer its verb names ("directed" -> "director") or the source table's name
        made readable (the table's with the rel's where two readings would share a name)."""
        found = [
            (r, src, dst)
            for r in self.rels.values()
            if r.backwards
            for src, dst in r.pairs
            if str(dst) in self.inverse_into and str(src) not in self.inverse_into
        ]
        taken = {pred for n in self.nodes.values() for _, pred in n.facts} | {r.predicate for r in self.rels.values()}
        names = [_doer_name(r.predicate, readable(str(src)), taken) for r, src, _ in found]
        out = []
        for (r, src, dst), name in zip(found, names, strict=True):
            default = name if names.count(name) == 1 else f"{readable(str(src))} ({r.predicate})"
            out.append((r, src, dst, r.inverse or default))
        return out

    def entity_id(self, table: str, key: Any) -> str:
        """The entity id of the node with primary key `key` in `table`."""
        return f"{table}:{key}" if self.qualified else str(key)

    def describe(self) -> list[str]:
        """The mapping as lines for `kgqa graph describe`."""
        scheme = "Table:key" if self.qualified else "the primary key as it is"
        lines = [f"mapping: {self.source}; entity ids: {scheme}"]
        for n in self.nodes.values():
            kind = "literal values" if n.literal else "entities"
            lines.append(f"node {n.table}: {kind} of type {n.table}, id {n.key}, label {n.label or '(the id)'}")
            lines += [f"  {prop} -> fact '{pred}'" for prop, pred in n.facts]
        for r in self.rels.values():
            pairs = ", ".join(f"{a}->{b}" for a, b in r.pairs)
            lines.append(f"rel {r.table}: predicate '{r.predicate}' ({pairs})")
            lines += [f"  {prop} -> qualifier '{name}' of each edge" for prop, name in r.properties]
        for r, src, dst, pred in self.backward_readings():
            lines.append(f"rel {r.table} backwards: {dst} -'{pred}'-> {src} (into a hub type)")
        lines += [f"warning: {w}" for w in self.warnings]
        return lines


def _doer_name(predicate: str, table: str, taken: set[str]) -> str:
    """A backwards reading's default name: the doer the rel's verb names ("directed" -> "director"),
    unless the source table is already called by one of that verb's doer nouns ("Author -WROTE->":
    "author") or the noun is another predicate's name; else the source table's name."""
    noun = agent_noun(predicate)
    if noun is None or noun in taken or table in AGENT_NOUNS.get(predicate.split()[0], "").split():
        return table
    return noun


def readable(name: str) -> str:
    """A property or rel table name as a predicate label: `publicationYear` -> "publication year",
    `PUBLISHED_AT` -> "published at"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|[_\-]+", " ", name)
    return " ".join(spaced.split()).lower()


@dataclass
class MappingFile:
    """A `kgqa.toml` mapping: tables included/excluded, properties excluded, labels and predicate
    names overridden, literal-value tables, the id scheme."""

    include: set[str] | None = None
    exclude: set[str] = field(default_factory=set)
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    rels: dict[str, dict[str, Any]] = field(default_factory=dict)
    ids: str | None = None
    inverse_into: list[str] | None = None
    path: str = ""

    @classmethod
    def read(cls, path: str | Path) -> MappingFile:
        """Parse a mapping file; ConfigError naming the file and field on bad input."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read mapping file {path}: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        return cls.from_dict(data, str(path))

    @classmethod
    def from_dict(cls, data: dict[str, Any], path: str = "mapping") -> MappingFile:
        """A mapping from parsed TOML (also what an index stores in its metadata)."""
        known = {"include", "exclude", "tables", "rels", "ids", "inverse_into"}
        unknown = set(data) - known
        if unknown:
            raise ConfigError(
                f"{path}: unknown field(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})"
            )
        ids = data.get("ids")
        if ids is not None and ids not in _ID_SCHEMES:
            raise ConfigError(f"{path}: field ids must be one of {', '.join(_ID_SCHEMES)}, got {ids!r}")
        for key in ("tables", "rels"):
            if not isinstance(data.get(key, {}), dict):
                raise ConfigError(f"{path}: field {key} must be a table of tables")
        include = data.get("include")
        inverse_into = data.get("inverse_into")
        return cls(
            set(include) if include is not None else None,
            set(data.get("exclude", [])),
            dict(data.get("tables", {})),
            dict(data.get("rels", {})),
            ids,
            list(inverse_into) if inverse_into is not None else None,
            path,
        )

    def to_dict(self) -> dict[str, Any]:
        """The mapping as TOML-shaped data (stored with the index so every later reader uses it)."""
        out: dict[str, Any] = {"exclude": sorted(self.exclude), "tables": self.tables, "rels": self.rels}
        if self.include is not None:
            out["include"] = sorted(self.include)
        if self.ids is not None:
            out["ids"] = self.ids
        if self.inverse_into is not None:
            out["inverse_into"] = sorted(self.inverse_into)
        return out

    def wants(self, table: str) -> bool:
        """Whether the file keeps `table` in the graph."""
        return table not in self.exclude and (self.include is None or table in self.include)


def _unsupported(type_name: str) -> bool:
    return type_name.upper().startswith(_UNSUPPORTED)


def infer_mapping(store: CatalogReader, spec: MappingFile | None = None) -> GraphMapping:
    """The mapping of the database's own node and rel tables, shaped by `spec`."""
    spec = spec or MappingFile()
    warnings: list[str] = []
    tables = [(str(r[1]), str(r[2])) for r in store.catalog("show_tables")]
    node_names = {n for n, kind in tables if kind == "NODE" and n not in OWN_TABLES}
    names = {n for n, _ in tables}
    clashes: tuple[str, ...] = ()
    if not names & {
        "kgqa_KgqaMeta",
        "kgqa_SchemaMigration",
        "Entity",
    }:  # HubLink never wrote here: these are the user's
        clashes = tuple(sorted(names & OWN_TABLES))
        warnings += [f"table {n} skipped: HubLink's own tables use this name" for n in clashes]
    nodes: dict[str, NodeMap] = {}
    for name, kind in sorted(tables):
        if kind != "NODE" or name in OWN_TABLES or not spec.wants(name):
            continue
        if name.startswith(RESERVED_PREFIX):
            warnings.append(f"node table {name} skipped: the prefix {RESERVED_PREFIX} is reserved for HubLink")
            continue
        node = _node_map(store, name, spec.tables.get(name, {}), warnings)
        if node is not None:
            nodes[name] = node
    rels: dict[str, RelMap] = {}
    for name, kind in sorted(tables):
        if kind != "REL" or name in OWN_TABLES or not spec.wants(name):
            continue
        if name.startswith(RESERVED_PREFIX):
            warnings.append(f"rel table {name} skipped: the prefix {RESERVED_PREFIX} is reserved for HubLink")
            continue
        pairs = tuple(
            (CatalogName(str(r[0])), CatalogName(str(r[1])))
            for r in store.catalog("show_connection", name)
            if str(r[0]) in nodes and str(r[1]) in nodes
        )
        if not pairs:
            continue  # both ends excluded: silently out with them
        opts = spec.rels.get(name, {})
        predicate = str(opts.get("predicate") or readable(name))
        inverse = opts.get("inverse")
        rels[name] = RelMap(
            CatalogName(name),
            predicate,
            pairs,
            inverse if isinstance(inverse, str) else None,
            inverse is not False,
            *_rel_properties(store, name, opts, warnings),
        )
    _drop_clashes(nodes, rels, warnings)
    for name in spec.include or ():
        if name not in nodes and name not in rels and name in node_names:
            warnings.append(f"table {name} named in {spec.path} is not usable (see the lines above)")
    qualified = spec.ids == "qualified"
    source = f"from {spec.path}" if spec.path else "inferred from the catalog"
    into = frozenset(t for t in spec.inverse_into or () if t in nodes)
    return GraphMapping(nodes, rels, qualified, warnings, source, into, clashes)


def _node_map(store: CatalogReader, name: str, opts: dict[str, Any], warnings: list[str]) -> NodeMap | None:
    """One node table's mapping, or None (with a warning) when it has no primary key."""
    info = store.catalog("table_info", name)  # property id, name, type, default, primary key
    keys = [str(r[1]) for r in info if r[4] is True]
    if not keys:
        warnings.append(f"node table {name} skipped: it has no primary key")
        return None
    key = keys[0]
    key_type = next(str(r[2]) for r in info if str(r[1]) == key)
    excluded = set(opts.get("exclude", []))
    usable: dict[str, str] = {}
    for row in info:
        prop, type_name = str(row[1]), str(row[2])
        if prop == key or prop in excluded:
            continue
        if _unsupported(type_name):
            warnings.append(f"property {name}.{prop} skipped: type {type_name} is not supported")
            continue
        usable[prop] = type_name
    label = opts.get("label")
    if label is not None and label not in usable and label != key:
        raise ConfigError(f"mapping: tables.{name}.label names {label!r}, which is not a usable property of {name}")
    if label is None:
        label = next((p for p in LABEL_PROPERTIES if p in usable), None)
    names = dict(opts.get("predicates", {}))
    facts = []
    seen: dict[str, str] = {}
    for prop in usable:
        if prop == label:
            continue
        pred = str(names.get(prop) or readable(prop))
        if pred in seen:
            warnings.append(f"property {name}.{prop} skipped: its predicate '{pred}' clashes with {name}.{seen[pred]}")
            continue
        seen[pred] = prop
        facts.append((CatalogName(prop), pred))
    return NodeMap(
        CatalogName(name),
        CatalogName(key),
        CatalogName(label) if label else None,
        tuple(facts),
        bool(opts.get("literal", False)),
        key_type,
    )


def _rel_properties(
    store: CatalogReader, name: str, opts: dict[str, Any], warnings: list[str]
) -> tuple[tuple[tuple[CatalogName, str], ...], tuple[CatalogName, ...]]:
    """The properties of rel table `name` its edges carry as qualifiers, each with its name (the
    mapping's `properties` entry, else the property made readable), less the `exclude`d; and those of
    them that hold text."""
    excluded, names = opts.get("exclude", []), opts.get("properties", {})
    if not isinstance(excluded, list) or not isinstance(names, dict):
        raise ConfigError(f"mapping: rels.{name}: exclude must be a list and properties a table of names")
    out, texts = [], []
    for row in store.catalog("table_info", name):  # property id, name, type, default, storage direction
        prop, type_name = str(row[1]), str(row[2])
        if prop in excluded:
            continue
        if _unsupported(type_name):
            warnings.append(f"property {name}.{prop} skipped: type {type_name} is not supported")
            continue
        out.append((CatalogName(prop), str(names.get(prop) or readable(prop))))
        if type_name.upper() == "STRING":
            texts.append(CatalogName(prop))
    return tuple(out), tuple(texts)


def _drop_clashes(nodes: dict[str, NodeMap], rels: dict[str, RelMap], warnings: list[str]) -> None:
    """A property fact whose predicate equals a rel table's predicate out of the same table is
    ambiguous: the property is skipped (the rel table wins)."""
    out_preds: dict[str, set[str]] = {}
    for r in rels.values():
        for src, _ in r.pairs:
            out_preds.setdefault(str(src), set()).add(r.predicate)
    for name, node in list(nodes.items()):
        kept = []
        for prop, pred in node.facts:
            if pred in out_preds.get(name, set()):
                warnings.append(f"property {name}.{prop} skipped: its predicate '{pred}' clashes with a rel table")
                continue
            kept.append((prop, pred))
        if len(kept) != len(node.facts):
            nodes[name] = NodeMap(node.table, node.key, node.label, tuple(kept), node.literal, node.key_type)
