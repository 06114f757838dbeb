"""The hubs' attributes over the whole graph, read once per graph state: which attributes a hub type
has (a predicate, or a predicate reached through a contribution or a list), every hub's values, and
the labels names in a question are linked against. Read through the graph's layout (`hub_facts`: one
query on HubLink's triple tables, the mapping's reads on a property graph); the workspace
drops it after every change to the graph or the index.

Whole-graph aggregates over the hubs (which hubs meet constraints, hubs per value) run as queries on
HubLink's own triple tables (answering/matching_hubs, group_hubs: Cypher in Kùzu, their SQL twins in
Postgres) and over the catalog's own facts on a user's property graph: `Catalog.in_cypher` says which,
decided once when the catalog is read."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kgqa import deadline
from kgqa.bulk import gc_paused
from kgqa.graph.layout import HubFactRow, in_triple_tables, layout_of
from kgqa.graph.store import GraphStore
from kgqa.question.verbs import share_a_stem
from kgqa.types import Entity, Triple

#: A bare membership predicate: the container's link from the hub names the attribute ("authors").
_MEMBER = re.compile(r"^(has )?(list )?(element|member|item|entry|part)s?$|list element", re.IGNORECASE)
#: A value that is a year, or a date that starts with one ("2004", "2004-05-01").
_YEAR_VALUE = re.compile(r"(1[5-9]|20)\d\d(-\d\d(-\d\d)?)?")
#: More facts than this and the catalog is not read (exact answers are then left to the retrieved facts).
MAX_FACTS = 400_000


@dataclass(frozen=True)
class Path:
    """Where an attribute's values are: `pred` from the hub (via = "") or from what `via` reaches."""

    via: str
    pred: str


@dataclass(frozen=True)
class Fact:
    """One value of one hub, with the triples that state it."""

    hub: str
    attribute: str
    path: Path
    value_id: str
    value: str
    triples: tuple[Triple, ...]


@dataclass
class Catalog:
    """Hub labels, attribute paths and values of one hub type."""

    hub_type: str
    hubs: dict[str, str] = field(default_factory=dict)  # id -> label
    facts: list[Fact] = field(default_factory=list)
    paths: dict[str, list[Path]] = field(default_factory=dict)  # attribute -> its paths
    by_hub: dict[str, list[Fact]] = field(default_factory=lambda: defaultdict(list))
    values: dict[str, list[Fact]] = field(default_factory=lambda: defaultdict(list))  # lower label -> facts
    vectors: dict[str, object] = field(default_factory=dict)  # attribute embeddings (filled on use)
    linker: object | None = None  # its label indexes (kgqa/question/linking.py, built on first use)
    in_cypher: bool = False  # aggregates run as the triple tables' queries (Cypher or SQL), else over `facts`

    _memo: dict[str, tuple[tuple[int, int], Any]] = field(default_factory=dict, repr=False, compare=False)

    def _memoised(self, name: str, make: Callable[[], Any]) -> Any:
        """`make()`, computed once per catalog content (its numbers of facts and hubs: a catalog only
        grows while it is read), so that a question never rescans the whole graph's facts."""
        stamp = (len(self.facts), len(self.hubs))
        hit = self._memo.get(name)
        if hit is None or hit[0] != stamp:
            hit = self._memo[name] = (stamp, make())
        return hit[1]

    def attributes(self) -> list[str]:
        """Attribute names, most frequent first."""
        return list(self._memoised("attributes", self._attributes))

    def _attributes(self) -> tuple[str, ...]:
        counts: dict[str, int] = defaultdict(int)
        for f in self.facts:
            counts[f.attribute] += 1
        return tuple(sorted(counts, key=lambda a: (-counts[a], a)))

    def first_values(self, attribute: str, limit: int = 200) -> list[str]:
        """The first `limit` values of `attribute`, in the catalog's order."""
        heads: dict[str, list[str]] = self._memoised(f"first_values:{limit}", lambda: self._first_values(limit))
        return list(heads.get(attribute, ()))

    def _first_values(self, limit: int) -> dict[str, list[str]]:
        heads: dict[str, list[str]] = defaultdict(list)
        for f in self.facts:
            head = heads[f.attribute]
            if len(head) < limit:
                head.append(f.value)
        return dict(heads)

    def date_attribute(self, question: str = "") -> str | None:
        """The attribute that dates a hub (`dated_attributes`' first), or the dating attribute `question`
        names by a word of its label ("which employees were *hired* after 2020": "hired", not "started")."""
        dated: tuple[str, ...] = self._memoised("dated_attributes", self._dated_attributes)
        named = [a for a in dated if question and share_a_stem(question, a)]
        if named:
            return named[0]
        return dated[0] if dated else None

    def _dated_attributes(self) -> tuple[str, ...]:
        """The attributes that may date a hub, best first: one named "year", then "date", then those whose
        values are mostly years or dates ("released: 2004" in a graph that names no year), the most stated
        first; the hub's own before those of what it links to (an employee's "hired" before the "started"
        of the projects it works on)."""
        years: dict[str, int] = defaultdict(int)
        totals: dict[str, int] = defaultdict(int)
        for f in self.facts:
            totals[f.attribute] += 1
            years[f.attribute] += bool(_YEAR_VALUE.fullmatch(f.value.strip()))
        own = {a for a, paths in self.paths.items() if any(not p.via for p in paths)}

        def rank(a: str) -> tuple[bool, int, int, str]:
            word = next((k for k, w in enumerate(("year", "date")) if w in a.lower()), 2)
            return (a not in own, word, -years[a], a)

        named = [a for a in self.paths if "year" in a.lower() or "date" in a.lower()]
        dated = [a for a in totals if years[a] >= max(2, 0.8 * totals[a])]
        return tuple(sorted(dict.fromkeys(named + dated), key=rank))

    def stated_values(self) -> frozenset[str]:
        """The lower-cased labels of the values the hubs state themselves (one hop)."""
        return self._memoised(
            "stated_values", lambda: frozenset(f.value.casefold() for f in self.facts if not f.path.via)
        )

    def hub_link_attributes(self) -> frozenset[str]:
        """Attributes with a value that is itself a hub (a link between hubs, such as "cites")."""
        return self._memoised(
            "hub_links", lambda: frozenset(f.attribute for f in self.facts if f.value_id in self.hubs)
        )

    def of(self, hub: str, attribute: str) -> list[Fact]:
        """A hub's values of one attribute."""
        return [f for f in self.by_hub.get(hub, []) if f.attribute == attribute]

    def own_of(self, hub: str, attribute: str) -> list[Fact]:
        """A hub's values of one attribute, its own where it states any itself, else those reached through
        what it links to (a country's population, not also its capital's)."""
        facts = self.of(hub, attribute)
        own = [f for f in facts if not f.path.via]
        return own or facts

    def hubs_meeting(self, wanted: list[tuple[Path, list[str]]]) -> list[tuple[str, str]]:
        """(id, label) of the hubs that state, for every (path, value ids) of `wanted`, one of the
        values along the path, by label: the answer of answering/matching_hubs, from the facts."""
        met: set[str] | None = None
        for path, ids in wanted:
            allowed = set(ids)
            hubs = {f.hub for f in self.facts if f.path == path and f.value_id in allowed}
            met = hubs if met is None else met & hubs
        return sorted(((h, self.hubs[h]) for h in met or ()), key=lambda kv: (kv[1], kv[0]))

    def hubs_per_value(self, ids: list[str], attribute: str) -> list[tuple[str, int, list[str]]]:
        """(value, count, hub ids) per value of `attribute` over the hubs `ids`, most hubs first: the
        answer of answering/group_hubs, from the facts."""
        wanted, paths = set(ids), self.paths.get(attribute, [])
        out: dict[str, list[str]] = {}
        for f in self.facts:
            if f.hub in wanted and f.path in paths:
                members = out.setdefault(f.value, [])
                if f.hub not in members:
                    members.append(f.hub)
        return sorted(((k, len(m), m) for k, m in out.items()), key=lambda x: (-x[1], x[0]))

    def hub_label_index(self) -> dict[str, list[str]]:
        """Lower-cased hub label -> hub ids."""
        out: dict[str, list[str]] = defaultdict(list)
        for h, label in self.hubs.items():
            out[label.casefold()].append(h)
        return out


def attribute_name(path: Path, mid_label: str) -> str:
    """The name of a path: its predicate, or for a list's members the predicate that reaches the list."""
    if _MEMBER.search(path.pred):
        return path.via or re.sub(r"\s+list$", "", mid_label, flags=re.IGNORECASE) or path.pred
    return path.pred


def exact_answers_available(store: GraphStore) -> bool:
    """Whether the graph in `store` gets exact answers over the whole graph (kgqa/answering/exact.py):
    every layout that reads `hub_facts` does (HubLink's triple layout and a property graph)."""
    return callable(getattr(layout_of(store), "hub_facts", None))


def read_catalog(store: GraphStore, hub_type: str) -> Catalog | None:
    """The catalog of `hub_type` (None when the graph holds no such hub or is too large to hold)."""
    if not exact_answers_available(store):
        return None
    with gc_paused():  # hundreds of thousands of facts at once
        return _read_catalog(store, hub_type)


def _read_catalog(store: GraphStore, hub_type: str) -> Catalog | None:
    rows = layout_of(store).hub_facts(hub_type, MAX_FACTS)
    if not rows or len(rows) >= MAX_FACTS:
        return None
    return catalog_of_rows(rows, hub_type, in_triple_tables(store))


def catalog_of_rows(rows: list[HubFactRow], hub_type: str, in_cypher: bool) -> Catalog:
    """The catalog of the hubs `rows` state facts of (the `hub_facts` read; sorted here)."""
    rows.sort(key=lambda r: (r[0], r[2], r[3], r[5], r[6]))  # Kùzu's parallel scan returns rows in any order
    cat = Catalog(hub_type, in_cypher=in_cypher)
    # a container whose members take the name of the predicate that reaches it ("authors" -> authors list)
    named = {(r[0], r[3]) for r in rows if r[2] and attribute_name(Path(r[2], r[5]), r[4]) == r[2]}
    # per-hub containers ("Paper Class 1", "Evidence 1"): one label on many entities that hold facts
    holders: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        if r[2] and r[4]:  # an unlabelled entity (a graph without a label property) is named by its id
            holders[r[4].casefold()].add(r[3])
    mids = {m for ids in holders.values() if len(ids) >= 3 for m in ids}
    entity: dict[str, Entity] = {}

    def ent(eid: str, label: str, literal: bool = False, types: tuple[str, ...] = ()) -> Entity:
        if eid not in entity:
            entity[eid] = Entity(eid, label, types, literal)
        return entity[eid]

    cat.hubs = {r[0]: r[1] or r[0] for r in rows}  # a graph without a label property: the id names the hub
    for hub, hub_label, via, mid, mid_label, pred, vid, vlabel, literal in deadline.checked(
        rows, "reading the graph's facts"
    ):
        if not via and (hub, vid) in named:
            continue  # "authors: authors list": the list's members are the values
        if vid in cat.hubs and via:
            continue
        path = Path(via, pred)
        name = attribute_name(path, mid_label)
        h = ent(hub, hub_label, types=(hub_type,))
        v = ent(vid, vlabel or vid, bool(literal))
        if via:
            m = ent(mid, mid_label)
            triples: tuple[Triple, ...] = (Triple(h, via, m), Triple(m, pred, v))
        else:
            triples = (Triple(h, pred, v),)
        fact = Fact(hub, name, path, vid, vlabel or vid, triples)
        cat.facts.append(fact)
        cat.by_hub[hub].append(fact)
        if vid not in mids:  # such a container's label names no value
            cat.values[fact.value.casefold()].append(fact)
        paths = cat.paths.setdefault(name, [])
        if path not in paths:
            paths.append(path)
    return cat


class CatalogCache:
    """One catalog per hub type until `forget()`."""

    def __init__(self) -> None:
        self._cats: dict[str, Catalog | None] = {}
        self.types: list[str] | None = None  # the index's hub types, as stored
        self.untyped: list[Catalog] | None = None  # an index without hub types: kgqa/answering/untyped.py

    def get(self, store: GraphStore, hub_type: str) -> Catalog | None:
        """The catalog of `hub_type`, read on first use."""
        if hub_type not in self._cats:
            self._cats[hub_type] = read_catalog(store, hub_type)
        return self._cats[hub_type]

    def forget(self) -> None:
        """Drop what was read (the graph changed)."""
        self._cats.clear()
        self.types = None
        self.untyped = None
