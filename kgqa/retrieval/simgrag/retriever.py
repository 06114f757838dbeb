"""SimGRAG (seeds/simgrag-paper.txt): query -> pattern graph -> top-k similar subgraphs by Graph Semantic
Distance -> verbalised subgraphs -> answer.

1. Query-to-pattern (§4.1): the LLM writes the pattern (provider with a client), else the offline
   rule-based builder (kgqa/retrieval/patterns.py).
2. Candidates (§5.1): for each known pattern node the top-k_nodes entity labels by HNSW search over the
   label index (every entity carrying one of those labels is a candidate, at the label's L2 distance);
   for each known relation the top-k_relations predicates. Unknown nodes and relations match anything
   at distance 0; a typed unknown node ("UNKNOWN paper 1") only matches entities of the graph type most
   similar to its hint (the paper's FactKG variant, appendix C.1).
3. Pattern-to-subgraph (§5.2): the exact pruned top-k search (kgqa/retrieval/gsd.py) over the candidate
   neighbourhoods, read from Kùzu one query per pattern edge and direction.
4. Generation (§4.4): each subgraph verbalised as its triples, answered through the roles.

Index: `kgqa index build --retriever simgrag` (label index parts `labels` and `predicates`).
Parameters (`--param`): `k` (3, subgraphs), `k_nodes` (16), `k_relations` (16), as in the paper."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from kgqa import deadline
from kgqa.llm.base import ScoredTriple
from kgqa.question.components import analyse_components, extract_components
from kgqa.retrieval.evidence import EvidenceGroup, generate, sources_and_hubs
from kgqa.retrieval.gsd import (
    Candidates,
    GraphEdge,
    Match,
    Pattern,
    SearchStats,
    dfs_order,
    start_node,
    top_k_subgraphs,
)
from kgqa.retrieval.label_retriever import LabelIndexRetriever
from kgqa.retrieval.llm_step import ask_llm, has_llm
from kgqa.retrieval.patterns import PatternGroup, offline_patterns, parse_pattern_reply
from kgqa.retrieval.seed_prompts import SIMGRAG_PATTERN
from kgqa.types import Answer, Entity, Triple

DEFAULTS = {"k": 3, "k_nodes": 16, "k_relations": 16}
#: A type hint must be at least this similar to a graph type to restrict an unknown node.
MIN_TYPE_SIMILARITY = 0.5
#: Stop reading neighbourhoods beyond this many edges for one pattern (the result is then not exact).
MAX_EDGES = 300_000
#: Search budget per question: candidate extensions looked at, over all pattern variants (about 2 s). A
#: pattern with several unknown hops prunes little, so its search is cut here (noted; then not exact).
MAX_WORK = 1_000_000


@dataclass
class PatternResult:
    """The matches of one pattern with what the search did."""

    pattern: Pattern
    matches: list[Match]
    stats: SearchStats
    candidates: dict[str, int]
    edges_read: int
    seconds: float
    truncated: bool = False


class SimGragRetriever(LabelIndexRetriever):
    """Pattern graph, GSD top-k subgraphs in Kùzu, verbalised subgraphs."""

    name = "simgrag"
    title = "SimGRAG"
    defaults = DEFAULTS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._types: dict[str, np.ndarray] | None = None

    def _retrieve(self, question: str) -> Answer:
        params = self.params
        cfg = self.settings()
        notes: list[str] = []
        trace: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        groups = self.patterns(question, notes)
        t1 = time.perf_counter()
        ranked: list[tuple[Match, Pattern]] = []
        budget = [MAX_WORK]
        for gi, group in enumerate(groups):
            for tier in group.tiers:
                found: list[tuple[Match, Pattern]] = []
                for desc, pattern in tier:
                    deadline.check("pattern matching")
                    if budget[0] <= 0:
                        break
                    result = self.match(pattern, cfg, budget)
                    trace.append(_trace_entry(gi, desc, result))
                    if result.truncated:
                        notes.append(f"pattern {gi + 1}: neighbourhoods cut at {MAX_EDGES} edges (not exact)")
                    if result.stats.exhausted:
                        notes.append(
                            f"search budget of {MAX_WORK:,} candidate extensions spent at pattern {gi + 1} "
                            f"({desc}): best subgraphs found so far (not exact)"
                        )
                    found += [(m, pattern) for m in result.matches]
                if found:  # the k best of the first tier that matches; equal GSD: the smaller pattern
                    ranked += sorted(found, key=_tier_order)[: cfg["k"]]
                    break
        if not groups:
            notes.append("no pattern: the question names nothing to start from")
        elif not ranked:
            notes.append("no subgraph of the graph matches the pattern")
        ranked.sort(key=_tier_order)
        t2 = time.perf_counter()
        evidence = [self._verbalise(m, p) for m, p in ranked]
        final = generate(self.roles, question, evidence)
        sources, hubs = sources_and_hubs(final, evidence)
        triples = list(dict.fromkeys(st.triple.canonical for g in evidence for st in g.triples))
        if params.topic_entity:
            notes.append("SimGRAG needs no topic entity (candidates come from vector search): it is not used")
        return Answer(
            question=question,
            answer=final.text,
            sources=sources,
            triples=triples,
            hubs=hubs,
            mode=self.roles.name,
            strategy="pattern",
            topic_entity=None,
            components=[
                " | ".join(f"({h}, {r}, {t})" for h, r, t in g.first.triples()) for g in groups if g.first is not None
            ],
            timings={"pattern": t1 - t0, "retrieve": t2 - t1, "generate": time.perf_counter() - t2},
            notes=notes,
            trace=trace,
            result=final.result,
        )

    # -- query to pattern ----------------------------------------------------------------------
    def patterns(self, question: str, notes: list[str]) -> list[PatternGroup]:
        """The LLM's pattern when the provider has an LLM, else (or when it fails) the offline builder."""
        if has_llm(self.roles):
            pattern = ask_llm(self.roles, SIMGRAG_PATTERN, parse_pattern_reply, notes, question=question)
            if pattern is not None:
                return [PatternGroup([[("LLM pattern", pattern)]])]
        components = analyse_components(question, extract_components(question))
        return offline_patterns(question, components, self._node_score)

    def _node_score(self, text: str) -> float:
        """How well a text matches its nearest entity label (picks the start node without anchors)."""
        hits = self.search.ann("label", self.embedder.embed([text])[0], 1)
        return hits[0].similarity if hits else 0.0

    # -- pattern to subgraphs ------------------------------------------------------------------
    def match(self, pattern: Pattern, cfg: dict[str, int], budget: list[int] | None = None) -> PatternResult:
        """The top-k subgraphs of one pattern (exact pruned search over Kùzu neighbourhoods); `budget`
        ([expansions left]) bounds the search and is decreased by what it spent."""
        start_time = time.perf_counter()
        cands = self.candidates(pattern, cfg)
        counts = {
            f"node {i}: {n.text}": len(c) for i, (n, c) in enumerate(zip(pattern.nodes, cands.nodes)) if c is not None
        }
        counts.update(
            {
                f"relation {j}: {e.relation}": len(c)
                for j, (e, c) in enumerate(zip(pattern.edges, cands.relations))
                if c is not None
            }
        )
        if any(c is not None and not c for c in cands.nodes):
            return PatternResult(pattern, [], SearchStats(), counts, 0, time.perf_counter() - start_time)
        start = start_node(pattern, cands)
        adjacency, read, truncated = self._neighbourhoods(pattern, cands, start)
        stats = SearchStats()
        matches = top_k_subgraphs(
            pattern,
            cands,
            lambda x: adjacency.get(x, ()),
            cfg["k"],
            stats,
            max_considered=None if budget is None else budget[0],
        )
        if budget is not None:
            budget[0] -= stats.considered
        return PatternResult(pattern, matches, stats, counts, read, time.perf_counter() - start_time, truncated)

    def candidates(self, pattern: Pattern, cfg: dict[str, int]) -> Candidates:
        """Candidate nodes and relations by vector search (HNSW over the label index)."""
        search = self.search
        known_nodes = [i for i, n in enumerate(pattern.nodes) if n.known]
        known_edges = [j for j, e in enumerate(pattern.edges) if e.known]
        texts = [pattern.nodes[i].text for i in known_nodes] + [pattern.edges[j].relation for j in known_edges]
        vectors = self.embedder.embed(texts) if texts else np.zeros((0, 1), dtype=np.float32)
        nodes: list[dict[str, float] | None] = [None] * len(pattern.nodes)
        filters: list[Any] = [None] * len(pattern.nodes)
        for i, vec in zip(known_nodes, vectors):
            hits = search.ann("label", vec, cfg["k_nodes"])
            entities = search.entities_for([h.hash for h in hits])
            nodes[i] = {e.id: h.distance for h in hits for e in entities.get(h.hash, [])}
        for i, node in enumerate(pattern.nodes):
            if not node.known and node.type_hint:
                allowed = self._types_like(node.type_hint)
                if allowed:
                    filters[i] = _type_filter(search.entities, allowed)
        relations: list[dict[str, float] | None] = [None] * len(pattern.edges)
        for j, vec in zip(known_edges, vectors[len(known_nodes) :]):
            relations[j] = {h.text: h.distance for h in search.ann("predicate", vec, cfg["k_relations"])}
        return Candidates(nodes, relations, filters)

    def _types_like(self, hint: str) -> frozenset[str]:
        """The graph type most similar to a type hint, if it is similar enough."""
        if self._types is None:
            types = self.search.entity_types()
            self._types = dict(zip(types, self.embedder.embed(types))) if types else {}
        if not self._types:
            return frozenset()
        q = self.embedder.embed([hint])[0]
        best, sim = max(((t, float(v @ q)) for t, v in self._types.items()), key=lambda ts: (ts[1], ts[0]))
        return frozenset({best}) if sim >= MIN_TYPE_SIMILARITY else frozenset()

    def _neighbourhoods(
        self, pattern: Pattern, cands: Candidates, start: int
    ) -> tuple[dict[str, list[GraphEdge]], int, bool]:
        """Every edge the search can use, read level by level in DFS order: the images a pattern node can
        take are known before its edges are read, so each pattern edge costs one query per direction."""
        order = dfs_order(pattern, start)
        predicates = None
        if all(r is not None for r in cands.relations):
            predicates = sorted({p for r in cands.relations if r for p in r})
        adjacency: dict[str, list[GraphEdge]] = {}
        reach: dict[int, set[str]] = {
            start: {x for x in cands.nodes[start] or {} if cands.node_cost(start, x) is not None}
        }
        read = 0
        for j, u, w in order:
            todo = sorted(x for x in reach[u] if x not in adjacency)
            for i in range(0, len(todo), 2000):
                deadline.check("subgraph search")
                chunk = todo[i : i + 2000]
                for x in chunk:
                    adjacency[x] = []
                for e in self.search.edges(chunk, predicates):
                    if not e.outgoing and e.other.id == e.anchor:
                        continue  # a self-loop is read in both directions
                    edge = (
                        GraphEdge(e.anchor, e.predicate, e.other.id)
                        if e.outgoing
                        else GraphEdge(e.other.id, e.predicate, e.anchor)
                    )
                    adjacency[e.anchor].append(edge)
                    read += 1
                if read > MAX_EDGES:
                    return adjacency, read, True
            if w not in reach:
                reach[w] = {
                    edge.other(x)
                    for x in reach[u]
                    for edge in adjacency.get(x, ())
                    if cands.relation_cost(j, edge.predicate) is not None
                    and cands.node_cost(w, edge.other(x)) is not None
                }
        return adjacency, read, False

    # -- generation -------------------------------------------------------------------------------
    def _verbalise(self, match: Match, pattern: Pattern) -> EvidenceGroup:
        """The subgraph as its triples, cited under its answer node (a typed unknown node) or anchor."""
        ents = self.search.resolve([x for e in match.edges for x in (e.subject, e.object)])
        score = 1.0 / (1.0 + match.gsd)
        triples = [
            Triple(ents.get(e.subject) or Entity(e.subject), e.predicate, ents.get(e.object) or Entity(e.object))
            for e in match.edges
        ]
        cite = next((i for i, n in enumerate(pattern.nodes) if not n.known and n.type_hint), None)
        if cite is None:
            cite = next(i for i, n in enumerate(pattern.nodes) if n.known)
        source = ents.get(match.nodes[cite]) or Entity(match.nodes[cite])
        text = "; ".join(f"({t.subject.text}, {t.predicate}, {t.object.text})" for t in triples)
        return EvidenceGroup(
            source.id,
            source.text,
            [ScoredTriple(t, score, source.id) for t in triples],
            text=f"{text} (GSD {match.gsd:.3f})",
        )


def _tier_order(mp: tuple[Match, Pattern]) -> tuple:
    """Matches of different variants: by GSD, then the smaller pattern (an unknown hop costs nothing,
    so a detour through an extra node must not displace a direct match of equal GSD), then key."""
    m, pattern = mp
    return (round(m.gsd, 6), len(pattern.edges), m.key)


def _type_filter(entities: dict[str, Entity], allowed: frozenset[str]) -> Callable[[str], bool]:
    def accept(node: str) -> bool:
        e = entities.get(node)
        return e is not None and bool(allowed.intersection(e.types))

    return accept


def _trace_entry(group: int, variant: str, r: PatternResult) -> dict[str, Any]:
    return {
        "step": "pattern",
        "group": group + 1,
        "variant": variant,
        "pattern": [list(t) for t in r.pattern.triples()],
        "candidates": r.candidates,
        "edges_read": r.edges_read,
        "considered": r.stats.considered,
        "expansions": r.stats.expansions,
        "pruned": r.stats.pruned,
        "complete_matches": r.stats.complete,
        "exhausted": r.stats.exhausted,
        "seconds": round(r.seconds, 4),
        "subgraphs": [
            {"gsd": round(m.gsd, 4), "triples": [f"({e.subject}, {e.predicate}, {e.object})" for e in m.edges]}
            for m in r.matches
        ],
    }
