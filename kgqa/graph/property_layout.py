"""A user's own Kùzu property graph, read in place through a `GraphMapping` (kgqa/graph/mapping.py).

Nothing here writes: every query is a `propgraph/*.cypher` template into which only catalog names of
the mapping are spliced (quoted), with keys bound as parameters. Path enumeration walks the rel tables
level by level with those templates (one query per FROM/TO pair and level, for all paths at once) and
applies the same rules as `indexing/enumerate_hub_paths.cypher` on the triple layout."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kgqa.errors import InputError
from kgqa.graph import layout as layouts
from kgqa.graph.layout import GraphStats, HubFactRow, PathRow, SchemaRow, StepRow, UntypedObjectRow, unique
from kgqa.graph.mapping import GraphMapping, MappingFile, NodeMap, RelMap, infer_mapping
from kgqa.indexing.verbalise import verbalise
from kgqa.types import SYNTHETIC_ID_PREFIX, Entity, Triple, path_hash, synthetic_literal_id, text_hash

if TYPE_CHECKING:
    from kgqa_procedures.udfs import UdfContext

    from kgqa.graph.store import GraphStore

#: Ids per `out_edges` read when the exact answers' catalog is read (`hub_facts`).
FACT_BATCH = 1000
#: The metadata key under which `index build` keeps the mapping file it was given.
MAPPING_META_KEY = "graph_mapping"


def literal_text(value: Any) -> str:
    """A property value as the text of a literal."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return ", ".join(literal_text(v) for v in value)
    return str(value)


def stored_layout(store: GraphStore) -> PropertyLayout:
    """The user's graph through the mapping its index was built with (kept in its metadata), else
    through the one inferred now."""
    spec = None
    data = store.meta_get(MAPPING_META_KEY)
    if data:
        spec = MappingFile.from_dict(data, "the mapping stored with the index")
    layout = PropertyLayout(store, resolve_ids(store, infer_mapping(store, spec), spec), spec)
    from kgqa.indexing.metadata import META_KEY

    info = store.meta_get(META_KEY) or {}
    layout.set_hub_types(frozenset(info.get("params", {}).get("hub_types", [])))
    return layout


def resolve_ids(store: GraphStore, mapping: GraphMapping, spec: MappingFile | None) -> GraphMapping:
    """Decide the id scheme when the mapping file does not: the primary keys as they are, unless a
    key occurs in two node tables; then every id is `Table:key`. Reads every key once (O(entities))."""
    if spec is not None and spec.ids is not None:
        return mapping
    seen: set[str] = set()
    for node in mapping.nodes.values():
        keys = {r[0] for r in store.run("propgraph/all_keys", names={"table": node.table, "key": node.key})}
        if seen & keys:
            mapping.qualified = True
            return mapping
        seen |= keys
    return mapping


class PropertyLayout:
    """`GraphLayout` over the user's own node and rel tables."""

    name = "property graph"

    def __init__(self, store: GraphStore, mapping: GraphMapping, spec: MappingFile | None = None) -> None:
        self.store, self.mapping, self.spec = store, mapping, spec
        self._table_of: dict[str, str] = {}  # plain entity id -> its node table (as read)
        self._out: dict[str, list[tuple[Any, ...]]] = defaultdict(list)  # node table -> (rel, src, dst) pairs
        self._in: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        for rel in mapping.rels.values():
            for src, dst in rel.pairs:
                self._out[str(src)].append((rel, src, dst))
                self._in[str(dst)].append((rel, src, dst))
        self._read_backwards()

    def _read_backwards(self) -> None:
        """Index the backward readings (kgqa/graph/mapping.py: into the hub types) by table."""
        self._back_out: dict[str, list[tuple[Any, ...]]] = defaultdict(list)  # hub table -> readings
        self._back_in: dict[str, list[tuple[Any, ...]]] = defaultdict(list)  # source table -> readings
        for reading in self.mapping.backward_readings():
            self._back_out[str(reading[2])].append(reading)
            self._back_in[str(reading[1])].append(reading)

    def set_hub_types(self, hub_types: frozenset[str]) -> None:
        """The hub types of the index being built: unless the mapping file names them
        (`inverse_into`), the rel tables into them are read backwards too."""
        if self.spec is not None and self.spec.inverse_into is not None:
            return
        into = frozenset(t for t in hub_types if t in self.mapping.nodes)
        if into != self.mapping.inverse_into:
            self.mapping.inverse_into = into
            self._read_backwards()

    def on(self, store: GraphStore) -> PropertyLayout:
        """The same layout reading through another connection (a sibling store)."""
        return PropertyLayout(store, self.mapping, self.spec)

    # -- ids and nodes --------------------------------------------------------------------------
    def _keys_by_table(self, ids: list[str]) -> dict[str, list[Any]]:
        """The ids grouped by the node table that may hold them, as key values."""
        out: dict[str, list[Any]] = defaultdict(list)
        for i in ids:
            if i.startswith(SYNTHETIC_ID_PREFIX):
                continue  # a property value: no node of its own
            if self.mapping.qualified:
                table, _, key = i.partition(":")
                node = self.mapping.nodes.get(table)
                candidates = [(node, key)] if node is not None and key else []
            elif i in self._table_of:  # seen before: only its own table is read
                candidates = [(self.mapping.nodes[self._table_of[i]], i)]
            else:
                candidates = [(n, i) for n in self.mapping.nodes.values()]
            for node, key in candidates:
                value = node.key_value(key)
                if value is not None:
                    out[str(node.table)].append(value)
        return out

    def _entity(self, node: dict[str, Any]) -> Entity:
        m = self.mapping.nodes[node["_label"]]
        key = node[str(m.key)]
        label = node.get(str(m.label)) if m.label else None
        eid = self.mapping.entity_id(str(m.table), key)
        if not self.mapping.qualified:
            if len(self._table_of) > 1_000_000:
                self._table_of.clear()
            self._table_of[eid] = str(m.table)
        return Entity(eid, literal_text(label) if label is not None else "", (str(m.table),), m.literal)

    def _facts(self, node: dict[str, Any]) -> list[Triple]:
        m = self.mapping.nodes[node["_label"]]
        subject = self._entity(node)
        out = []
        for prop, pred in m.facts:
            value = node.get(str(prop))
            if value is None or value == []:
                continue
            text = literal_text(value)
            out.append(Triple(subject, pred, Entity(synthetic_literal_id(text), text, (), True)))
        return out

    def _nodes(self, ids: list[str]) -> list[dict[str, Any]]:
        rows = []
        for table, keys in self._keys_by_table(unique(ids)).items():
            m = self.mapping.nodes[table]
            rows += [
                r[0]
                for r in self.store.run("propgraph/nodes_by_keys", {"keys": keys}, {"table": m.table, "key": m.key})
            ]
        return rows

    def entities_by_ids(self, ids: list[str]) -> dict[str, Entity]:
        found = (self._entity(n) for n in self._nodes(ids))
        return {e.id: e for e in found}

    # -- edges ----------------------------------------------------------------------------------
    def out_edges(self, ids: list[str]) -> list[Triple]:
        return self._out_edges(ids, in_paths=False)

    def _out_edges(self, ids: list[str], *, in_paths: bool) -> list[Triple]:
        """Out-edges; `in_paths` leaves out the rel pairs read backwards into a hub type (in hub paths
        `Author -WROTE-> Paper` belongs to the paper's hub as `Paper -author-> Author`, and is not
        followed from the author on to the author's other papers)."""
        backwards = (
            {(str(r.table), str(a), str(b)) for r, a, b, _ in self.mapping.backward_readings()} if in_paths else set()
        )
        nodes = self._nodes(ids)
        out: list[Triple] = []
        for n in nodes:
            out += self._facts(n)
        by_table: dict[str, dict[Any, Entity]] = defaultdict(dict)
        for n in nodes:
            m = self.mapping.nodes[n["_label"]]
            by_table[str(m.table)][n[str(m.key)]] = self._entity(n)
        for table, subjects in by_table.items():
            m = self.mapping.nodes[table]
            for rel, src, dst in self._out[table]:
                if (str(rel.table), str(src), str(dst)) in backwards:
                    continue
                names = {"src": src, "rel": rel.table, "dst": dst, "src_key": m.key}
                for key, target, *edge in self.store.run(_edges("out", rel), {"keys": list(subjects)}, names):
                    out.append(Triple(subjects[key], rel.predicate, self._entity(target), qualifiers_of(rel, edge)))
            for rel, src, dst, pred in self._back_out[table]:  # Paper -author-> Author for Author -WROTE-> Paper
                names = {"src": src, "rel": rel.table, "dst": dst, "dst_key": m.key}
                for source, key, *edge in self.store.run(_edges("in", rel), {"keys": list(subjects)}, names):
                    out.append(Triple(subjects[key], pred, self._entity(source), qualifiers_of(rel, edge)))
        return out

    def in_edges(self, ids: list[str]) -> list[Triple]:
        objects = {e.id: e for e in self.entities_by_ids(ids).values() if not e.is_literal or e.has_own_id}
        by_table: dict[str, dict[Any, Entity]] = defaultdict(dict)
        for keys_table, keys in self._keys_by_table(list(objects)).items():
            for k in keys:
                eid = self.mapping.entity_id(keys_table, k)
                if eid in objects and objects[eid].types == (keys_table,):
                    by_table[keys_table][k] = objects[eid]
        out: list[Triple] = []
        for table, targets in by_table.items():
            m = self.mapping.nodes[table]
            for rel, src, dst in self._in[table]:
                names = {"src": src, "rel": rel.table, "dst": dst, "dst_key": m.key}
                for source, key, *edge in self.store.run(_edges("in", rel), {"keys": list(targets)}, names):
                    out.append(Triple(self._entity(source), rel.predicate, targets[key], qualifiers_of(rel, edge)))
            for rel, src, dst, pred in self._back_in[table]:
                names = {"src": src, "rel": rel.table, "dst": dst, "src_key": m.key}
                for key, hub, *edge in self.store.run(_edges("out", rel), {"keys": list(targets)}, names):
                    out.append(Triple(self._entity(hub), pred, targets[key], qualifiers_of(rel, edge)))
        return out

    # -- the edges' own properties -------------------------------------------------------------
    def has_qualifiers(self) -> bool:
        """Whether some rel table's edges carry properties of their own."""
        return any(r.properties for r in self.mapping.rels.values())

    def edges_with_text_in(self, text: str, limit: int) -> list[Triple]:
        """Edges (in their rel table's direction) with a text property of three characters or more
        that `text` holds, lower-cased (a role the question names: "who played agent smith"); the
        caller checks word boundaries. Scans each such rel table once per property."""
        out: list[Triple] = []
        params = {"text": text.casefold(), "limit": limit}
        for rel in self.mapping.rels.values():
            for prop in rel.text_properties:
                for src, dst in rel.pairs:
                    names = {"src": src, "rel": rel.table, "dst": dst, "prop": prop}
                    for a, b, edge in self.store.run("propgraph/edges_by_qualifier_text", params, names):
                        out.append(Triple(self._entity(a), rel.predicate, self._entity(b), qualifiers_of(rel, [edge])))
        return out[:limit]

    def forward_predicates(self) -> frozenset[str]:
        """The predicates of the rel tables read in their own direction (not the backward readings)."""
        return frozenset(r.predicate for r in self.mapping.rels.values())

    # -- search and hubs ------------------------------------------------------------------------
    def entities_by_label(self, text: str, limit: int) -> list[tuple[Entity, bool]]:
        found: list[tuple[Entity, bool]] = []
        for m in self.mapping.nodes.values():
            if m.literal or m.label is None:
                continue
            rows = self.store.run(
                "propgraph/nodes_by_label", {"label": text, "limit": limit}, {"table": m.table, "label": m.label}
            )
            found += [(self._entity(r[0]), bool(r[1])) for r in rows]
        found.sort(key=lambda p: (not p[1], len(p[0].label), p[0].id))
        return found[:limit]

    def node_tables(self) -> list[str]:
        """The node tables of the mapping (the graph's types)."""
        return sorted(self.mapping.nodes)

    def hub_root_candidates(self, ctx: UdfContext) -> list[tuple[str, str, int]]:
        if self.mapping.clashes:
            raise InputError(
                f"your database has tables named like HubLink's own ({', '.join(self.mapping.clashes)}): an index "
                "build would write into them; rename them (ALTER TABLE x RENAME TO y) to index this graph",
                field="tables",
            )
        unknown = sorted(set(ctx.hub_types) - set(self.mapping.nodes))
        if unknown and ctx.min_out_degree is None:
            raise InputError(
                f"unknown hub type {', '.join(unknown)}: the graph's node tables are {', '.join(self.node_tables())}",
                field="--hub-type",
            )
        self.set_hub_types(ctx.hub_types)
        out = []
        for m in self.mapping.nodes.values():
            if m.literal or (ctx.min_out_degree is None and str(m.table) not in ctx.hub_types):
                continue  # no entity of this table can meet the type criterion
            degree: dict[Any, int] = defaultdict(int)
            for rel, src, dst in self._out[str(m.table)]:
                names = {"src": src, "rel": rel.table, "dst": dst, "src_key": m.key}
                for key, n in self.store.run("propgraph/out_degrees", None, names):
                    degree[key] += n
            for rel, src, dst, _ in self._back_out[str(m.table)]:
                names = {"src": src, "rel": rel.table, "dst": dst, "dst_key": m.key}
                for key, n in self.store.run("propgraph/in_degrees", None, names):
                    degree[key] += n
            for (node,) in self.store.run("propgraph/all_nodes", None, {"table": m.table}):
                e = self._entity(node)
                deg = degree[node[str(m.key)]] + len(self._facts(node))
                if ctx.meets_criteria(list(e.types), deg):
                    out.append((e.id, e.label, deg))
        return out

    def hub_paths(
        self, roots: list[str], boundary: bool, max_path_length: int, ctx: UdfContext | None
    ) -> Iterator[PathRow]:
        """Level by level from the roots: a path is extended only through non-root entities not on it
        yet; it is emitted when it has `max_path_length` triples, ends at a hub root (with
        `boundary`), or has no acyclic extension (the rules of enumerate_hub_paths.cypher)."""
        is_root = ctx.root_ids.__contains__ if ctx is not None else (lambda _id: False)
        return paths_by_level(
            roots,
            self.entities_by_ids(roots),
            lambda ids: self._out_edges(ids, in_paths=True),
            boundary,
            max_path_length,
            is_root,
        )

    # -- relation chains (set-based: one query per table and rel pair, never per entity) ---------
    def untyped_objects(self) -> list[UntypedObjectRow]:
        """None: every node has its table as its type."""
        return []

    def subjects_among(self, ids: list[str]) -> set[str]:
        return {t.subject.id for t in self.out_edges(ids)}

    def object_predicates(self, ids: list[str]) -> dict[str, set[str]]:
        return layouts.by_first((t.object.id, t.predicate) for t in self.in_edges(ids))

    def predicate_schema(self) -> list[SchemaRow]:
        rows: list[SchemaRow] = []
        for m in self.mapping.nodes.values():
            for prop, pred in m.facts:
                n = self.store.run("propgraph/count_property", None, {"table": m.table, "prop": prop})[0][0]
                rows.append((pred, [str(m.table)], [], True, int(n)))
        pairs = [(r, src, dst, r.predicate) for r in self.mapping.rels.values() for src, dst in r.pairs]
        for rel, src, dst, pred in pairs:
            n = self.store.run("propgraph/count_edges", None, {"src": src, "rel": rel.table, "dst": dst})[0][0]
            rows.append((pred, [str(src)], [str(dst)], self.mapping.nodes[str(dst)].literal, int(n)))
        for rel, src, dst, pred in self.mapping.backward_readings():  # Paper -author-> Author
            n = self.store.run("propgraph/count_edges", None, {"src": src, "rel": rel.table, "dst": dst})[0][0]
            rows.append((pred, [str(dst)], [str(src)], self.mapping.nodes[str(src)].literal, int(n)))
        return [r for r in rows if r[4]]

    def step(self, frontier: list[Entity], predicate: str, direction: int, cap: int) -> list[StepRow]:
        rows: list[StepRow] = []

        def add(from_table: str, key: Any, node: dict[str, Any]) -> None:
            e = self._entity(node)
            rows.append((self.mapping.entity_id(from_table, key), e.id, e.label, e.is_literal, list(e.types)))

        if direction < 0:
            self._step_into_literals(frontier, predicate, cap, rows)
        for table, keys in self._keys_by_table([e.id for e in frontier]).items():
            m = self.mapping.nodes[table]
            if direction > 0:
                if any(pred == predicate for _, pred in m.facts):
                    for node in self._nodes([self.mapping.entity_id(table, k) for k in keys]):
                        if node["_label"] == table:
                            for t in self._facts(node):
                                if t.predicate == predicate:
                                    rows.append((t.subject.id, t.object.id, t.object.label, True, []))
                forward = [(r, a, b) for r, a, b in self._out[table] if r.predicate == predicate]
                backward = [(r, a, b) for r, a, b, p in self._back_out[table] if p == predicate]
            else:
                forward = [(r, a, b) for r, a, b, p in self._back_in[table] if p == predicate]
                backward = [(r, a, b) for r, a, b in self._in[table] if r.predicate == predicate]
            many = "_many" if len(keys) > layouts.IN_LIST_MAX else ""  # Kùzu checks `IN $keys` per row against all
            for rel, src, dst in forward:  # the frontier is the rel's source
                names = {"src": src, "rel": rel.table, "dst": dst, "src_key": m.key}
                query = "propgraph/out_edges_capped" + many
                for key, node in self.store.run(query, {"keys": keys, "limit": cap}, names):
                    add(table, key, node)
            for rel, src, dst in backward:  # the frontier is the rel's target
                names = {"src": src, "rel": rel.table, "dst": dst, "dst_key": m.key}
                query = "propgraph/in_edges_capped" + many
                for node, key in self.store.run(query, {"keys": keys, "limit": cap}, names):
                    add(table, key, node)
        return rows[:cap]

    def _step_into_literals(self, frontier: list[Entity], predicate: str, cap: int, rows: list[StepRow]) -> None:
        """A backward step from property values: the nodes whose property (read as `predicate`) has one."""
        literals = {e.label: e.id for e in frontier if e.id.startswith(SYNTHETIC_ID_PREFIX)}
        if not literals:
            return
        for m in self.mapping.nodes.values():
            for prop, pred in m.facts:
                if pred != predicate:
                    continue
                params = {"values": list(literals), "limit": cap}
                for (node,) in self.store.run("propgraph/nodes_by_property", params, {"table": m.table, "prop": prop}):
                    lit = literals.get(literal_text(node.get(str(prop))))
                    if lit is not None:
                        e = self._entity(node)
                        rows.append((lit, e.id, e.label, e.is_literal, list(e.types)))

    def predicate_triples(self, predicate: str, offset: int, limit: int) -> list[Triple]:
        """One page of the triples of `predicate`, in key order of subject then object: the first
        offset+limit of each table or rel pair read as it (one query each), merged."""
        n = offset + limit
        out: list[Triple] = []
        for m in self.mapping.nodes.values():
            for prop, pred in m.facts:
                if pred == predicate:
                    names = {"table": m.table, "key": m.key, "prop": prop}
                    for (node,) in self.store.run("propgraph/property_page", {"n": n}, names):
                        out += [t for t in self._facts(node) if t.predicate == predicate]
        pairs = [(r, a, b, False) for r in self.mapping.rels.values() if r.predicate == predicate for a, b in r.pairs]
        pairs += [(r, a, b, True) for r, a, b, p in self.mapping.backward_readings() if p == predicate]
        for rel, src, dst, backwards in pairs:
            sk, dk = self.mapping.nodes[str(src)].key, self.mapping.nodes[str(dst)].key
            names = {"src": src, "rel": rel.table, "dst": dst, "src_key": sk, "dst_key": dk}
            query = "propgraph/edges_page_by_target" if backwards else "propgraph/edges_page"  # subject first
            for a, b in self.store.run(query, {"n": n}, names):
                x, y = self._entity(a), self._entity(b)
                out.append(Triple(y, predicate, x) if backwards else Triple(x, predicate, y))
        out.sort(key=lambda t: (self._order(t.subject), self._order(t.object)))
        return out[offset : offset + limit]

    def _order(self, e: Entity) -> tuple[str, int, str]:
        """An entity's place in key order (the order the page queries read in): by table, then key."""
        m = self.mapping.nodes.get(e.types[0]) if e.types else None
        if m is None:
            return ("", 0, e.id)
        key = e.id.partition(":")[2] if self.mapping.qualified else e.id
        value = m.key_value(key)
        return (str(m.table), value if isinstance(value, int) else 0, key if not isinstance(value, int) else "")

    def labels_in_text(self, text: str, min_len: int, limit: int) -> list[Entity]:
        found: list[Entity] = []
        for m in self._named_tables():
            names = {"table": m.table, "label": m.label or m.key}
            params = {"text": text, "min_len": min_len, "limit": limit}
            found += [
                self._named_entity(m, node) for (node,) in self.store.run("propgraph/labels_in_text", params, names)
            ]
        found.sort(key=lambda e: (-len(e.label), e.id))
        return found[:limit]

    def entity_labels(self, min_len: int) -> list[Entity]:
        """Every node of a table with a label property, or a text key that names it, whose name is at
        least `min_len` long (what `labels_in_text` searches)."""
        found: list[Entity] = []
        for m in self._named_tables():
            for (node,) in self.store.run("propgraph/all_nodes", None, {"table": m.table}):
                e = self._named_entity(m, node)
                if len(e.label) >= min_len:
                    found.append(e)
        return found

    def _named_tables(self) -> list[NodeMap]:
        """The node tables whose nodes a question can name: by a label property, or by a text key (a
        numeric key names nothing a question writes)."""
        return [m for m in self.mapping.nodes.values() if m.label is not None or isinstance(m.key_value("x"), str)]

    def _named_entity(self, m: NodeMap, node: dict[str, Any]) -> Entity:
        """A node of a named table as an entity, labelled by its key where the table has no label property."""
        e = self._entity(node)
        return replace(e, label=str(node[str(m.key)])) if m.label is None else e

    def untyped_facts(self, limit: int) -> list[HubFactRow]:
        """Nothing: every node is of its table's type."""
        return []

    def hub_facts(self, hub_type: str, limit: int) -> list[HubFactRow]:
        """Read through `out_edges` (the backward readings included): the hubs' edges, then those of the
        non-literal entities of other types they reach, in batches of `FACT_BATCH` ids."""
        node = self.mapping.nodes.get(hub_type)
        if node is None or node.literal:
            return []
        hubs = [self._entity(n).id for (n,) in self.store.run("propgraph/all_nodes", None, {"table": node.table})]
        rows: list[HubFactRow] = []
        seen: set[HubFactRow] = set()  # parallel edges (two roles in one film) state one fact once

        def add(row: HubFactRow) -> None:
            if row not in seen:
                seen.add(row)
                rows.append(row)

        for start in range(0, len(hubs), FACT_BATCH):
            first = self.out_edges(hubs[start : start + FACT_BATCH])
            reached: dict[str, list[Triple]] = defaultdict(list)  # middle id -> the hub edges into it
            for t in first:
                o = t.object
                add((t.subject.id, t.subject.label, "", "", "", t.predicate, o.id, o.label, o.is_literal))
                if not o.is_literal and o.has_own_id and hub_type not in o.types:
                    reached[o.id].append(t)
            mids = list(reached)
            for m_start in range(0, len(mids), FACT_BATCH):
                for t2 in self.out_edges(mids[m_start : m_start + FACT_BATCH]):
                    v = t2.object
                    for t1 in reached[t2.subject.id]:
                        if v.id != t1.subject.id:
                            p, m = t1.subject, t2.subject
                            add((p.id, p.label, t1.predicate, m.id, m.label, t2.predicate, v.id, v.label, v.is_literal))
            if len(rows) >= limit:
                break
        return rows[:limit]

    def predicates(self) -> list[str]:
        names = [pred for m in self.mapping.nodes.values() for _, pred in m.facts]
        names += [r.predicate for r in self.mapping.rels.values()]
        names += [reading[3] for reading in self.mapping.backward_readings()]
        return list(dict.fromkeys(names))

    def is_empty(self) -> bool:
        return self.stats(1).triples == 0

    def stats(self, top: int) -> GraphStats:
        types: list[tuple[str, int]] = []
        preds: dict[str, int] = defaultdict(int)
        literals = 0
        for m in self.mapping.nodes.values():
            n = self.store.run("propgraph/count_nodes", None, {"table": m.table})[0][0]
            types.append((str(m.table), n))
            if m.literal:
                literals += n
            for prop, pred in m.facts:
                c = self.store.run("propgraph/count_property", None, {"table": m.table, "prop": prop})[0][0]
                preds[pred] += c
                literals += c
        for rel in self.mapping.rels.values():
            for src, dst in rel.pairs:
                preds[rel.predicate] += self.store.run(
                    "propgraph/count_edges", None, {"src": src, "rel": rel.table, "dst": dst}
                )[0][0]
        for rel, src, dst, pred in self.mapping.backward_readings():
            preds[pred] += self.store.run("propgraph/count_edges", None, {"src": src, "rel": rel.table, "dst": dst})[0][
                0
            ]
        entities = sum(n for _, n in types) + literals - sum(n for t, n in types if self.mapping.nodes[t].literal)
        top_preds = sorted(((p, n) for p, n in preds.items() if n), key=lambda x: (-x[1], x[0]))
        return GraphStats(
            entities,
            literals,
            sum(preds.values()),
            len(top_preds),
            top_preds[:top],
            sorted(types, key=lambda x: (-x[1], x[0]))[:top],
        )


def _edges(direction: str, rel: RelMap) -> str:
    """The edge template of one direction: the one that also returns the edge where it has properties."""
    return f"propgraph/{direction}_edges_qualified" if rel.properties else f"propgraph/{direction}_edges"


def qualifiers_of(rel: RelMap, edge: list[Any]) -> tuple[tuple[str, str], ...]:
    """The (name, value) pairs of the properties `edge` (a rel value as Kùzu returns it, in a one-item
    list; an empty list where the template returns no edge) carries, in the mapping's order."""
    if not edge or not rel.properties:
        return ()
    found = []
    for prop, name in rel.properties:
        value = edge[0].get(str(prop))
        if value is not None and value != []:
            found.append((name, literal_text(value)))
    return tuple(found)


def path_row(
    nodes: tuple[Entity, ...], preds: tuple[str, ...], qualifiers: tuple[tuple[tuple[str, str], ...], ...] = ()
) -> PathRow:
    """The `PathRow` of a path (its entities and the predicates between them): ids, labels, hash, text.
    `qualifiers`: each edge's own properties (or none at all); they are said in the text after the edge
    and count in the hash, so that a changed amount rebuilds the hub."""
    triples = tuple(
        Triple(nodes[k], preds[k], nodes[k + 1], qualifiers[k] if qualifiers else ()) for k in range(len(preds))
    )
    ids = [n.id for n in nodes]
    labels = [n.label for n in nodes]
    text = verbalise([n.label or n.id for n in nodes], list(preds), qualifiers)
    if not any(qualifiers):
        return (nodes[0].id, ids, labels, list(preds), path_hash(triples), text)
    digest = text_hash("\x1e".join(t.stated for t in triples))
    return (nodes[0].id, ids, labels, list(preds), digest, text, tuple(qualifiers))


def use_mapping(store: GraphStore, spec: MappingFile | None) -> PropertyLayout:
    """Read the user's own graph in `store` through the mapping file `spec` (from now on)."""
    from kgqa.graph.layout import set_layout

    if store.has_table("Entity"):
        raise InputError("a mapping file applies to a graph of your own tables; this database has HubLink's own")
    layout = PropertyLayout(store, resolve_ids(store, infer_mapping(store, spec), spec), spec)
    set_layout(store, layout)
    return layout


def remember_mapping(store: GraphStore, hub_types: frozenset[str]) -> None:
    """Keep the mapping (file, and the id scheme decided) with the index, so every later reader of
    the graph (ask, update, your connection) reads it the same way. Nothing on the triple layout."""
    from kgqa.graph.layout import layout_of

    layout = layout_of(store)
    if not isinstance(layout, PropertyLayout):
        return
    layout.set_hub_types(hub_types)
    spec = layout.spec or MappingFile()
    data = spec.to_dict()
    data["ids"] = "qualified" if layout.mapping.qualified else "plain"
    store.meta_set(MAPPING_META_KEY, data)


def drop_own_tables(store: GraphStore) -> list[str]:
    """On a user's own graph, drop every table HubLink created (its metadata, label index, ...):
    the database is left with exactly the user's tables. Returns the names dropped."""
    from kgqa.graph.mapping import OWN_TABLES

    if store.has_table("Entity"):
        return []
    tables = [(str(r[1]), str(r[2])) for r in store.catalog("show_tables") if str(r[1]) in OWN_TABLES]
    if not tables:
        return []
    store.load_extension("vector")
    own = {name for name, _ in tables}
    for row in store.query("CALL show_indexes() RETURN *")[1]:
        if str(row[0]) in own:
            store.query(f"CALL drop_vector_index('{row[0]}', '{row[1]}')")
    dropped = []
    for name, _kind in sorted(tables, key=lambda t: t[1] == "NODE"):  # rel tables first
        store.query(f"DROP TABLE `{name}`")
        dropped.append(name)
    return dropped


def paths_by_level(
    roots: list[str],
    starts: dict[str, Entity],
    out_edges: Callable[[list[str]], list[Triple]],
    boundary: bool,
    max_path_length: int,
    is_root: Callable[[str], bool],
) -> Iterator[PathRow]:
    """The maximal acyclic outbound paths of `roots` (thesis Alg. 5), level by level: one `out_edges`
    call per hop level over the whole frontier. A path is extended only through non-root entities not
    on it yet; it is emitted when it has `max_path_length` triples, ends at a hub root (with
    `boundary`), or has no acyclic extension (the rules of enumerate_hub_paths.cypher). Shared by the
    layouts that cannot run that Cypher (a user's own tables, the graph in Postgres)."""
    known: dict[str, list[Triple]] = {}  # entity id -> its out-edges in paths, read once per call

    def edges_of(entities: Iterator[Entity]) -> None:
        wanted = unique(e.id for e in entities if e.has_own_id and e.id not in known)
        for i in wanted:
            known[i] = []
        for t in out_edges(wanted) if wanted else ():
            known[t.subject.id].append(t)

    Path = tuple[tuple[Entity, ...], tuple[Triple, ...]]
    paths: list[Path] = [((starts[r],), ()) for r in roots if r in starts]
    for length in range(1, max_path_length + 1):
        edges_of(p[0][-1] for p in paths)
        grown: list[Path] = []
        for nodes, edges in paths:
            last = nodes[-1]
            if len(nodes) > 1 and is_root(last.id):
                continue  # a path never passes through another hub root
            inner = {n.id for n in nodes[1:]}
            for t in known.get(last.id, ()):
                x = t.object
                if x.id == nodes[0].id or x.id in inner:
                    continue
                grown.append((nodes + (x,), edges + (t,)))
        if not grown:
            return
        if length < max_path_length:
            edges_of(p[0][-1] for p in grown)
        follow = known
        for nodes, edges in grown:
            x = nodes[-1]
            root_end = is_root(x.id)
            if root_end and not boundary:
                continue
            maximal = length == max_path_length or (boundary and root_end)
            if not maximal:
                inner = {n.id for n in nodes[1:-1]}
                maximal = not any(
                    t.object.id != nodes[0].id and t.object.id not in inner and (boundary or not is_root(t.object.id))
                    for t in follow.get(x.id, ())
                )
            if maximal:
                yield path_row(nodes, tuple(t.predicate for t in edges), tuple(t.qualifiers for t in edges))
        paths = grown
