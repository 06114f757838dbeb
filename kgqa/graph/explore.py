"""Reads for browsing the graph: a page of an entity's neighbours with counts per predicate, entity search
over resources and literals, shortest paths between two entities, the schema (types and predicates with
counts), and the bridges and paths that join an answer's evidence. Every read is bounded (page sizes,
depth and fan-out caps) and runs a fixed number of queries, never one per entity.

On HubLink's own triple tables the reads are the explore/*.cypher queries (in Postgres, `--graph
postgres`, their SQL twins); on a user's own property graph they go through the `GraphLayout` methods
(out_edges, in_edges, entities_by_label, stats, and `PropertyLayout.predicate_triples`); what a layout
cannot answer is an InputError naming the field."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from kgqa.errors import EntityNotFoundError, InputError
from kgqa.graph.layout import in_triple_tables, layout_of
from kgqa.graph.property_layout import PropertyLayout
from kgqa.graph.reader import entities_by_ids, in_edges, out_edges
from kgqa.graph.store import GraphStore
from kgqa.types import Entity, Triple

Direction = Literal["out", "in", "both"]
#: The most neighbours one page holds.
MAX_PAGE = 200
#: The deepest path search (triples per path).
MAX_PATH_DEPTH = 6
#: Rows one BFS level may read per direction (the fan-out cap); past it, the search is marked truncated.
MAX_LEVEL_ROWS = 20_000
#: Paths returned at most by one search.
MAX_PATHS = 20
#: Types and predicates listed at most by the schema view.
MAX_SCHEMA_ROWS = 500


@dataclass(frozen=True)
class Neighbour:
    """One triple seen from an entity: the predicate, the direction and the entity at the other end."""

    predicate: str
    direction: Literal["out", "in"]
    node: Entity


@dataclass(frozen=True)
class NeighbourPage:
    """A page of an entity's neighbours, the counts per predicate and direction, and the total matched."""

    entity: Entity
    counts: list[tuple[str, str, int]]  # (direction, predicate, n)
    total: int
    offset: int
    neighbours: list[Neighbour]

    @property
    def more(self) -> bool:
        """Whether neighbours past this page exist."""
        return self.offset + len(self.neighbours) < self.total


@dataclass(frozen=True)
class PathSearch:
    """Shortest paths from `source` to `target` (each a list of triples, oriented as stored); `depth` is
    their length (None: none within `max_depth`); `truncated`: a level hit the fan-out cap or more paths
    existed than were returned, so the list may be incomplete."""

    source: Entity
    target: Entity
    max_depth: int
    depth: int | None
    paths: list[list[Triple]]
    truncated: bool


@dataclass(frozen=True)
class Schema:
    """Types and predicates with their counts (most frequent first, at most `limit` each)."""

    types: list[tuple[str, int]]
    predicates: list[tuple[str, int]]
    untyped: int
    type_count: int
    predicate_count: int
    limit: int = field(default=MAX_SCHEMA_ROWS)


def _entity(row: list) -> Entity:
    return Entity(row[1], row[2] or "", tuple(row[3] or ()), bool(row[4]))


def _require(store: GraphStore, ids: Iterable[str], fields: Iterable[str]) -> list[Entity]:
    ids = list(ids)
    found = entities_by_ids(store, ids)
    for i, name in zip(ids, fields, strict=True):
        if i not in found:
            raise EntityNotFoundError(f"no entity with id '{i}' ({name})", field=name)
    return [found[i] for i in ids]


def _own_layout(store: GraphStore) -> bool:
    """Whether the graph is HubLink's own entity and triple tables, in Kùzu or in Postgres (where the
    explore/*.cypher queries are answered by their SQL twins, kgqa/postgres/graph_store.py)."""
    return in_triple_tables(store)


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise InputError(f"{name} must be between {low} and {high}, got {value}", field=name)


def neighbours(
    store: GraphStore,
    entity_id: str,
    *,
    predicate: str = "",
    direction: Direction = "both",
    offset: int = 0,
    limit: int = 25,
) -> NeighbourPage:
    """One page of `entity_id`'s neighbours (outgoing first, then incoming; by predicate, then label),
    only `predicate`'s if given, with the counts per predicate in both directions. Three queries at most."""
    _check_range("limit", limit, 1, MAX_PAGE)
    _check_range("offset", offset, 0, 10_000_000)
    if direction not in ("out", "in", "both"):
        raise InputError(f"direction must be out, in or both, got '{direction}'", field="direction")
    (entity,) = _require(store, [entity_id], ["id"])
    if not _own_layout(store):
        return _neighbours_of_layout(store, entity, predicate, direction, offset, limit)
    counts = [(r[0], r[1], r[2]) for r in store.run("explore/neighbour_counts", {"id": entity_id})]
    counts.sort(key=lambda c: (c[0] != "out", -c[2], c[1]))

    def matched(d: str) -> int:
        return sum(n for di, p, n in counts if di == d and (not predicate or p == predicate))

    n_out = matched("out") if direction in ("out", "both") else 0
    n_in = matched("in") if direction in ("in", "both") else 0
    page: list[Neighbour] = []
    if offset < n_out:
        rows = store.run(
            "explore/neighbours_out", {"id": entity_id, "predicate": predicate, "offset": offset, "limit": limit}
        )
        page += [Neighbour(r[0], "out", _entity(r)) for r in rows]
    rest = limit - len(page)
    if rest > 0 and n_in and offset + len(page) < n_out + n_in:
        in_offset = max(0, offset - n_out)
        rows = store.run(
            "explore/neighbours_in", {"id": entity_id, "predicate": predicate, "offset": in_offset, "limit": rest}
        )
        page += [Neighbour(r[0], "in", _entity(r)) for r in rows]
    return NeighbourPage(entity, counts, n_out + n_in, offset, page)


def _neighbours_of_layout(
    store: GraphStore, entity: Entity, predicate: str, direction: Direction, offset: int, limit: int
) -> NeighbourPage:
    """`neighbours` through the layout's out_edges/in_edges (two set reads of the entity's edges)."""
    both = [Neighbour(t.predicate, "out", t.object) for t in out_edges(store, [entity.id])]
    both += [Neighbour(t.predicate, "in", t.subject) for t in in_edges(store, [entity.id])]
    tally: dict[tuple[str, str], int] = defaultdict(int)
    for n in both:
        tally[(n.direction, n.predicate)] += 1
    counts = sorted(((d, p, c) for (d, p), c in tally.items()), key=lambda c: (c[0] != "out", -c[2], c[1]))
    wanted = [
        n
        for n in both
        if (direction == "both" or n.direction == direction) and (not predicate or n.predicate == predicate)
    ]
    wanted.sort(key=lambda n: (n.direction != "out", n.predicate, n.node.label, n.node.id))
    return NeighbourPage(entity, counts, len(wanted), offset, wanted[offset : offset + limit])


def search_entities(store: GraphStore, text: str = "", *, type_: str = "", limit: int = 10) -> list[Entity]:
    """Entities, resources and literals alike, whose id is `text` or whose label contains it, of type
    `type_` if given: exact matches first, then resources before literals, shorter labels first."""
    _check_range("limit", limit, 1, MAX_PAGE)
    if not text and not type_:
        raise InputError("give a text to search for or a type", field="q")
    if not _own_layout(store):
        return _search_layout(store, text, type_, limit)
    rows = store.run("explore/search_entities", {"text": text, "type": type_, "limit": limit})
    return [Entity(r[0], r[1] or "", tuple(r[2] or ()), bool(r[3])) for r in rows]


def _search_layout(store: GraphStore, text: str, type_: str, limit: int) -> list[Entity]:
    """`search_entities` through the layout: the entity with id `text`, then label matches (resources)."""
    if not text:
        raise InputError(
            "on your own property graph, give a text to search for (a type alone lists no entities)", field="q"
        )
    found = list(entities_by_ids(store, [text]).values())
    found += [e for e, _ in layout_of(store).entities_by_label(text, MAX_PAGE) if e.id != text]
    return [e for e in found if not type_ or type_ in e.types][:limit]


def triples_of_predicate(store: GraphStore, predicate: str, *, offset: int = 0, limit: int = 25) -> list[Triple]:
    """One page of the triples of `predicate` (ordered by subject and object id)."""
    _check_range("limit", limit, 1, MAX_PAGE)
    _check_range("offset", offset, 0, 10_000_000)
    if not _own_layout(store):
        layout = layout_of(store)
        if not isinstance(layout, PropertyLayout):
            raise InputError(
                f"listing the triples of a predicate is not available on the {layout.name}", field="predicate"
            )
        return layout.predicate_triples(predicate, offset, limit)
    rows = store.run("explore/triples_by_predicate", {"predicate": predicate, "offset": offset, "limit": limit})
    return [
        Triple(Entity(r[0], r[1] or "", (), bool(r[2])), r[3], Entity(r[4], r[5] or "", (), bool(r[6]))) for r in rows
    ]


def schema(store: GraphStore, limit: int = MAX_SCHEMA_ROWS) -> Schema:
    """The graph's types and predicates with their counts (at most `limit` of each, most frequent first)."""
    _check_range("limit", limit, 1, MAX_SCHEMA_ROWS)
    if not _own_layout(store):  # a property graph: one type per node table, no untyped entity
        stats = layout_of(store).stats(10**6)
        return Schema(
            stats.top_types[:limit], stats.top_predicates[:limit], 0, len(stats.top_types), stats.predicates, limit
        )
    types = [(r[0], r[1]) for r in store.run("graph/top_types", {"limit": limit})]
    preds = [(r[0], r[1]) for r in store.run("graph/top_predicates", {"limit": limit})]
    untyped, type_count = store.run("explore/untyped_count")[0]
    predicate_count = store.run("graph/count_triples")[0][1]
    return Schema(types, preds, untyped, type_count, predicate_count, limit)


# --- breadth-first search, one query per level ---------------------------------------------------------


@dataclass
class _Side:
    """One side of a bidirectional search: the depth at which each entity was reached and, for each,
    the (triple key, previous entity) pairs that reached it at that depth."""

    frontier: set[str]
    depth: dict[str, int]
    parents: dict[str, list[tuple[tuple[str, str, str], str]]] = field(default_factory=lambda: defaultdict(list))
    seen: dict[str, Entity] = field(default_factory=dict)  # entities read with the edges (other layouts)

    @classmethod
    def start(cls, entity_id: str) -> _Side:
        return cls({entity_id}, {entity_id: 0})


def _expand(store: GraphStore, side: _Side, level_rows: int) -> bool:
    """Advance `side` one level (one query); True if the fan-out cap cut the level short."""
    ids = sorted(side.frontier)
    if _own_layout(store):
        rows = store.run("explore/frontier_edges", {"ids": ids, "limit": level_rows})
        truncated = len(rows) >= level_rows
    else:  # through the layout: both directions of the whole frontier, capped the same way
        outs, ins = out_edges(store, ids), in_edges(store, ids)
        truncated = len(outs) >= level_rows or len(ins) >= level_rows
        rows = []
        for t in outs[:level_rows] + ins[:level_rows]:
            side.seen[t.subject.id], side.seen[t.object.id] = t.subject, t.object
            rows.append([t.subject.id, t.predicate, t.object.id])
    level = min(side.depth[i] for i in side.frontier) + 1
    nxt: set[str] = set()
    # by key: the paths come out in the same order whatever order the database scanned the edges in
    for sid, pred, oid in sorted(tuple(r) for r in rows):
        key = (sid, pred, oid)
        for here, there in ((sid, oid), (oid, sid)):
            if here not in side.frontier or here == there:
                continue
            known = side.depth.get(there)
            if known is None:
                side.depth[there] = level
                known = level
                nxt.add(there)
            if known == level and (key, here) not in side.parents[there]:
                side.parents[there].append((key, here))
    side.frontier = nxt
    return truncated


def _chains(side: _Side, node: str, cap: int) -> list[list[tuple[str, str, str]]]:
    """Up to `cap` chains of triple keys from the side's start to `node` (start first)."""
    if side.depth[node] == 0:
        return [[]]
    out: list[list[tuple[str, str, str]]] = []
    for key, prev in side.parents[node]:
        for chain in _chains(side, prev, cap - len(out)):
            out.append([*chain, key])
            if len(out) >= cap:
                return out
    return out


def shortest_paths(
    store: GraphStore, source: str, target: str, *, max_depth: int = 3, max_paths: int = MAX_PATHS
) -> PathSearch:
    """The shortest paths (triples in either direction) between two entities, at most `max_depth` triples
    long: a set-based bidirectional breadth-first search that expands the smaller frontier, one query per
    level, each level capped at MAX_LEVEL_ROWS rows per direction."""
    _check_range("max_depth", max_depth, 1, MAX_PATH_DEPTH)
    _check_range("max_paths", max_paths, 1, MAX_PATHS)
    src, dst = _require(store, [source, target], ["source", "target"])
    if source == target:
        return PathSearch(src, dst, max_depth, 0, [[]], False)
    a, b = _Side.start(source), _Side.start(target)
    truncated = False
    depth = 0
    meet: list[str] = []
    while depth < max_depth and a.frontier and b.frontier:
        side = a if len(a.frontier) <= len(b.frontier) else b
        truncated |= _expand(store, side, MAX_LEVEL_ROWS)
        depth += 1
        meet = sorted(set(side.frontier) & set((b if side is a else a).depth))
        if meet:
            break
    if not meet:
        return PathSearch(src, dst, max_depth, None, [], truncated)
    length = min(a.depth[m] + b.depth[m] for m in meet)
    meet = [m for m in meet if a.depth[m] + b.depth[m] == length]
    keys: list[list[tuple[str, str, str]]] = []
    for m in meet:
        for head in _chains(a, m, max_paths + 1):
            for tail in _chains(b, m, max_paths + 1):
                keys.append(head + tail[::-1])
                if len(keys) > max_paths:
                    break
    truncated |= len(keys) > max_paths
    keys = keys[:max_paths]
    nodes = {**a.seen, **b.seen, **entities_by_ids(store, {i for chain in keys for k in chain for i in (k[0], k[2])})}
    paths = [[Triple(nodes[s], p, nodes[o]) for s, p, o in chain] for chain in keys]
    return PathSearch(src, dst, max_depth, length, paths, truncated)


def connecting_triples(store: GraphStore, topic: str, targets: Iterable[str], *, max_depth: int = 2) -> list[Triple]:
    """Triples of one shortest path (at most `max_depth` long) from `topic` to each reachable target:
    a single-source breadth-first search, one query per level, stopping once every target is reached."""
    _check_range("max_depth", max_depth, 1, MAX_PATH_DEPTH)
    wanted = set(targets) - {topic}
    if not wanted or not entities_by_ids(store, [topic]):
        return []
    side = _Side.start(topic)
    for _ in range(max_depth):
        if not side.frontier or wanted <= side.depth.keys():
            break
        _expand(store, side, MAX_LEVEL_ROWS)
    keys: dict[tuple[str, str, str], None] = {}
    for t in sorted(wanted & side.depth.keys()):
        for k in _chains(side, t, 1)[0]:
            keys[k] = None
    return _resolve(store, list(keys), side.seen)


def bridges(store: GraphStore, hub_ids: Iterable[str], *, max_triples: int = 200) -> list[Triple]:
    """The hubs' outgoing triples whose object is shared by two or more of the hubs (a venue, a year, an
    author): what joins their evidence. One query; at most `max_triples` (most shared objects first)."""
    hubs = sorted(set(hub_ids))
    if len(hubs) < 2:
        return []
    by_object: dict[str, list[Triple]] = defaultdict(list)
    for t in out_edges(store, hubs):
        by_object[t.object.id].append(t)
    shared = [ts for ts in by_object.values() if len({t.subject.id for t in ts}) >= 2]
    shared.sort(key=lambda ts: (-len(ts), ts[0].object.id))
    return [t for ts in shared for t in ts][:max_triples]


def _resolve(store: GraphStore, keys: list[tuple[str, str, str]], seen: dict[str, Entity]) -> list[Triple]:
    nodes = {**seen, **entities_by_ids(store, {i for k in keys for i in (k[0], k[2])})}
    return [Triple(nodes[s], p, nodes[o]) for s, p, o in keys if s in nodes and o in nodes]
