"""What the web page draws: an entity with its bounded neighbourhood, the evidence subgraph of an answer's
supporting triples (resolved exactly against the graph), and entity look-up by label for autocomplete."""

from __future__ import annotations

from typing import Any

from kgqa.graph.explore import bridges, connecting_triples
from kgqa.graph.reader import entities_by_ids, in_edges, out_edges
from kgqa.graph.store import GraphStore
from kgqa.types import Entity, Triple

#: The most triples one entity view returns per direction.
MAX_NEIGHBOURS = 200
#: Bridge triples (hubs' shared entities) added to one evidence graph at most.
MAX_BRIDGES = 200
#: The longest path drawn from the topic entity to a hub.
TOPIC_PATH_DEPTH = 3


def _node(e: Entity) -> dict[str, Any]:
    return {"id": e.id, "label": e.label or e.id, "literal": e.is_literal}


def _edge(t: Triple) -> dict[str, Any]:
    return {"source": t.subject.id, "target": t.object.id, "predicate": t.predicate, "triple": t.canonical}


def entity_view(store: GraphStore, entity_id: str, limit: int = 50) -> dict[str, Any] | None:
    """The entity, its types and at most `limit` outgoing and incoming triples (None if unknown)."""
    found = entities_by_ids(store, [entity_id]).get(entity_id)
    if found is None:
        return None
    outgoing, incoming = out_edges(store, [entity_id]), in_edges(store, [entity_id])
    return {
        **_node(found),
        "types": list(found.types),
        "out": [_edge(t) | {"node": _node(t.object)} for t in outgoing[:limit]],
        "in": [_edge(t) | {"node": _node(t.subject)} for t in incoming[:limit]],
        "truncated": len(outgoing) > limit or len(incoming) > limit,
    }


def evidence_graph(
    store: GraphStore, triples: list[str], hubs: list[str] | None = None, topic: str | None = None
) -> dict[str, Any]:
    """Nodes and edges of these canonical triple strings, found among their subjects' stored triples
    (labels may contain commas, so the strings are matched, never split); unmatched strings are listed.
    With `hubs`, the hubs' triples to entities two or more of them share are added (kind "bridge"); with
    `topic`, one shortest path from the topic to each hub (kind "path"). Evidence edges are kind "evidence"."""
    wanted = list(dict.fromkeys(triples))
    subjects = {t[1:].split(":", 1)[0].split(",", 1)[0].strip() for t in wanted if t.startswith("(")}
    by_text = {t.canonical: t for t in out_edges(store, sorted(subjects))}
    nodes: dict[str, dict[str, Any]] = {}
    edges = []
    for text in wanted:
        t = by_text.get(text)
        if t is None:
            continue
        nodes.setdefault(t.subject.id, _node(t.subject))
        nodes.setdefault(t.object.id, _node(t.object))
        edges.append(_edge(t) | {"kind": "evidence"})
    seen = {e["triple"] for e in edges}
    extra = [("bridge", t) for t in bridges(store, hubs or [], max_triples=MAX_BRIDGES)]
    if topic and hubs:
        extra += [("path", t) for t in connecting_triples(store, topic, hubs, max_depth=TOPIC_PATH_DEPTH)]
    for kind, t in extra:
        if t.canonical in seen:
            continue
        seen.add(t.canonical)
        nodes.setdefault(t.subject.id, _node(t.subject))
        nodes.setdefault(t.object.id, _node(t.object))
        edges.append(_edge(t) | {"kind": kind})
    known = entities_by_ids(store, nodes)  # the types, for the page's type filter (one query)
    for node_id, node in nodes.items():
        node["types"] = list(known[node_id].types) if node_id in known else []
    return {"nodes": list(nodes.values()), "edges": edges, "unmatched": [t for t in wanted if t not in by_text]}


def find_entities(store: GraphStore, text: str, limit: int = 10) -> list[dict[str, Any]]:
    """Entities whose id is `text` or whose label contains it (case-insensitive), for autocomplete."""
    rows = store.run("graph/entities_by_label", {"label": text, "limit": limit})
    found = [{"id": r[0], "label": r[1] or r[0]} for r in rows]
    exact = entities_by_ids(store, [text]).get(text)
    if exact is not None and all(f["id"] != exact.id for f in found):
        found.insert(0, {"id": exact.id, "label": exact.label or exact.id})
    return found[:limit]
