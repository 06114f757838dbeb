"""SimGRAG's pattern-to-subgraph alignment (seeds/simgrag-paper.txt §4.2–5): pattern graphs, the Graph
Semantic Distance (GSD), and the top-k search, exact with the paper's pruning (§5.2), plus a brute-force
reference used by the property test.

A match maps every pattern node to a distinct graph node and every pattern edge to a graph edge between
the images of its ends, in either direction (the paper ignores edge direction). Its GSD sums, over known
pattern nodes, the L2 distance between the node's embedding and its image's, and over known pattern
relations the same for the relations; unknown nodes and relations cost 0 and match anything that passes
their filter. The result is k matches with the k smallest GSDs; among matches of equal GSD at the k-th
place the search keeps the first it finds (greedy order), as the paper's priority queue does, so a branch
that cannot beat the k-th GSD is pruned even when it could tie."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from kgqa.errors import InputError

#: Slack for float rounding when comparing a lower bound with the k-th best GSD.
EPS = 1e-9


@dataclass(frozen=True)
class PatternNode:
    """A node of the pattern graph; unknown nodes ("UNKNOWN paper 1") may carry a type hint."""

    text: str
    known: bool = True
    type_hint: str = ""


@dataclass(frozen=True)
class PatternEdge:
    """An edge of the pattern graph between node indices; an unknown relation matches any."""

    head: int
    relation: str
    tail: int
    known: bool = True


@dataclass(frozen=True)
class Pattern:
    """A connected pattern graph without self-loops or parallel edges."""

    nodes: tuple[PatternNode, ...]
    edges: tuple[PatternEdge, ...]

    def __post_init__(self) -> None:
        pairs = set()
        for e in self.edges:
            if not (0 <= e.head < len(self.nodes) and 0 <= e.tail < len(self.nodes)) or e.head == e.tail:
                raise InputError(f"bad pattern edge {e}")
            pair = frozenset((e.head, e.tail))
            if pair in pairs:
                raise InputError(f"parallel pattern edges between nodes {e.head} and {e.tail}")
            pairs.add(pair)
        if self.edges and len(_component(self, 0)) != len(self.nodes):
            raise InputError("the pattern graph is not connected")

    def triples(self) -> list[tuple[str, str, str]]:
        """The pattern as (head, relation, tail) texts."""
        return [(self.nodes[e.head].text, e.relation, self.nodes[e.tail].text) for e in self.edges]


@dataclass(frozen=True)
class GraphEdge:
    """A stored triple, seen from either end."""

    subject: str
    predicate: str
    object: str

    def other(self, node: str) -> str:
        """The end that is not `node` (a self-loop returns `node`)."""
        return self.object if node == self.subject else self.subject


@dataclass
class Candidates:
    """What each pattern element may map to. `nodes[i]` is {graph node: distance} for a known node and
    None for an unknown one (any node, distance 0); `node_filter[i]`, when set, must also accept the
    graph node (e.g. typed unknown nodes). `relations[j]` is {predicate: distance} or None."""

    nodes: list[dict[str, float] | None]
    relations: list[dict[str, float] | None]
    node_filter: list[Callable[[str], bool] | None]

    def node_cost(self, i: int, node: str) -> float | None:
        """The distance of mapping pattern node i to `node`, or None when it is not a candidate."""
        allowed = self.node_filter[i]
        if allowed is not None and not allowed(node):
            return None
        cands = self.nodes[i]
        if cands is None:
            return 0.0
        return cands.get(node)

    def relation_cost(self, j: int, predicate: str) -> float | None:
        """The distance of mapping pattern edge j to `predicate`, or None when it is not a candidate."""
        cands = self.relations[j]
        if cands is None:
            return 0.0
        return cands.get(predicate)


@dataclass(frozen=True)
class Match:
    """A subgraph isomorphic to the pattern, with its GSD."""

    gsd: float
    nodes: tuple[str, ...]  # image of each pattern node
    edges: tuple[GraphEdge, ...]  # image of each pattern edge

    @property
    def key(self) -> tuple:
        """The tie-breaking key (same subgraph, same key)."""
        return (self.nodes, tuple((e.subject, e.predicate, e.object) for e in self.edges))

    @property
    def order(self) -> tuple:
        """The total order of matches: smallest GSD first, then key."""
        return (self.gsd, self.key)


def graph_semantic_distance(cands: Candidates, nodes: tuple[str, ...], edges: tuple[GraphEdge, ...]) -> float:
    """GSD (paper Eq. 3) of a complete mapping, summed in a fixed order (nodes, then edges)."""
    total = 0.0
    for i, node in enumerate(nodes):
        total += cands.node_cost(i, node) or 0.0
    for j, edge in enumerate(edges):
        total += cands.relation_cost(j, edge.predicate) or 0.0
    return total


def start_node(pattern: Pattern, cands: Candidates) -> int:
    """The known pattern node with the fewest candidates (Alg. 1 line 1); ties: the lowest index."""
    known = [i for i, c in enumerate(cands.nodes) if c is not None]
    if not known:
        raise InputError("the pattern has no known node to start from")
    return min(known, key=lambda i: (len(cands.nodes[i] or {}), i))


def dfs_order(pattern: Pattern, start: int) -> list[tuple[int, int, int]]:
    """The pattern's edges in DFS order from `start` (Alg. 1 line 2), each as (edge index, mapped end,
    other end): when an edge is reached its first end is already mapped."""
    incident: dict[int, list[int]] = {i: [] for i in range(len(pattern.nodes))}
    for j, e in enumerate(pattern.edges):
        incident[e.head].append(j)
        incident[e.tail].append(j)
    order: list[tuple[int, int, int]] = []
    seen_edges: set[int] = set()
    visited = {start}

    def visit(u: int) -> None:
        for j in incident[u]:
            if j in seen_edges:
                continue
            seen_edges.add(j)
            e = pattern.edges[j]
            w = e.tail if e.head == u else e.head
            order.append((j, u, w))
            if w not in visited:
                visited.add(w)
                visit(w)

    visit(start)
    return order


class _TopK:
    """The k best matches by (GSD, key): a max-heap on the order."""

    def __init__(self, k: int) -> None:
        self.k = k
        self._heap: list[tuple[float, _Reverse, Match]] = []

    @property
    def full(self) -> bool:
        return len(self._heap) >= self.k

    @property
    def worst(self) -> float:
        return -self._heap[0][0]

    def push(self, m: Match) -> None:
        item = (-m.gsd, _Reverse(m.key), m)
        if not self.full:
            heapq.heappush(self._heap, item)
        elif m.gsd < self.worst - EPS:  # a tie keeps the match found first
            heapq.heapreplace(self._heap, item)

    def result(self) -> list[Match]:
        return sorted((m for _, _, m in self._heap), key=lambda m: m.order)


class _Reverse:
    """Inverts the order of a key, so the heap's top is the worst (largest key among equal GSDs)."""

    __slots__ = ("key",)

    def __init__(self, key: tuple) -> None:
        self.key = key

    def __lt__(self, other: _Reverse) -> bool:
        return self.key > other.key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Reverse) and self.key == other.key


@dataclass
class SearchStats:
    """How much work a search did (for the trace and the latency report)."""

    considered: int = 0  # candidate extensions looked at (the work; what the budget counts)
    expansions: int = 0  # partial mappings extended (branches entered)
    pruned: int = 0  # branches cut by the bound (Eq. 11) or the look-ahead
    complete: int = 0
    exhausted: bool = False  # stopped at the work budget: the result is the best found so far


class _Exhausted(Exception):
    """Unwinds the search when the work budget is spent."""


def top_k_subgraphs(
    pattern: Pattern,
    cands: Candidates,
    adjacency: Callable[[str], Iterable[GraphEdge]],
    k: int,
    stats: SearchStats | None = None,
    max_considered: int | None = None,
) -> list[Match]:
    """The k matches with the smallest GSD: Algorithm 1 with the pruning bound of Eq. 11 and the greedy
    expansion order of §5.2 (start candidates and neighbours by ascending distance). Exact, unless
    `max_considered` is given and reached (then `stats.exhausted` is set and the best found are returned)."""
    if k < 1 or not pattern.edges:
        return []
    search = _SubgraphSearch(pattern, cands, adjacency, k, stats or SearchStats(), max_considered)
    try:
        search.run()
    except _Exhausted:
        search.stats.exhausted = True
    return search.best.result()


class _SubgraphSearch:
    """One top-k search: the fixed mapping order and its lower bounds, the partial mapping (`f`: pattern
    node -> graph node, `chosen`: pattern edge -> graph edge) and the k best matches so far."""

    def __init__(
        self,
        pattern: Pattern,
        cands: Candidates,
        adjacency: Callable[[str], Iterable[GraphEdge]],
        k: int,
        stats: SearchStats,
        max_considered: int | None,
    ) -> None:
        self.cands, self.adjacency, self.stats, self.max_considered = cands, adjacency, stats, max_considered
        self.start = start_node(pattern, cands)
        self.order = dfs_order(pattern, self.start)
        n = self.n = len(pattern.nodes)
        # X (Eq. 9): each node's smallest candidate distance; Y (Eq. 10): each edge's smallest relation distance.
        self.min_node = [min(c.values(), default=0.0) if c is not None else 0.0 for c in cands.nodes]
        self.min_rel = [min(c.values(), default=0.0) if c is not None else 0.0 for c in cands.relations]
        # Nodes are mapped in a fixed sequence (start, then each new end in DFS order): suffix sums give
        # the lower bound of what the unmapped nodes and the remaining edges still cost.
        mapped_after: list[set[int]] = []
        seen = {self.start}
        for _, _, w in self.order:
            seen = seen | {w}
            mapped_after.append(set(seen))
        steps = range(len(self.order))
        self.remain_nodes = [sum(self.min_node[i] for i in range(n) if i not in mapped_after[s]) for s in steps]
        self.remain_edges = [sum(self.min_rel[j] for j, _, _ in self.order[s + 1 :]) for s in steps]
        self.best = _TopK(k)
        self.f: list[str | None] = [None] * n
        self.chosen: list[GraphEdge | None] = [None] * len(pattern.edges)
        # Look-ahead (the filtering of subgraph matching): a node's image must offer a fitting edge for
        # every later pattern edge that starts at it, else no completion exists. Exact: it only cuts dead
        # branches.
        self.later_from: dict[int, list[tuple[int, int]]] = {}
        for j, u, w in self.order:
            self.later_from.setdefault(u, []).append((j, w))

    def run(self) -> None:
        """Try every start candidate, nearest first."""
        start, cands, stats = self.start, self.cands, self.stats
        floor = sum(self.min_node[i] for i in range(self.n) if i != start) + sum(self.min_rel)
        keep = cands.node_filter[start]
        for node, dist in sorted((cands.nodes[start] or {}).items(), key=lambda kv: (kv[1], kv[0])):
            if keep is not None and not keep(node):
                continue
            if self.best.full and dist + floor >= self.best.worst - EPS:
                stats.pruned += 1
                continue
            if not self.viable(start, node, {node}):
                stats.pruned += 1
                continue
            self.f[start] = node
            self.expand(0, {node}, dist)
            self.f[start] = None

    def viable(self, node: int, image: str, used: set[str]) -> bool:
        """Whether `image` offers a fitting edge for every later pattern edge from `node`."""
        cands, f, edges = self.cands, self.f, None
        for j, x in self.later_from.get(node, ()):
            if self.chosen[j] is not None:
                continue
            if edges is None:
                edges = list(self.adjacency(image))
            fx = f[x]
            if not any(
                cands.relation_cost(j, e.predicate) is not None
                and (
                    (e.other(image) == fx and e.subject != e.object)
                    if fx is not None
                    else (
                        e.other(image) not in used
                        and e.other(image) != image
                        and cands.node_cost(x, e.other(image)) is not None
                    )
                )
                for e in edges
            ):
                return False
        return True

    def options(self, step: int, used: set[str]) -> list[tuple[float, GraphEdge, str]]:
        """The graph edges that can map pattern edge `order[step]`: (node + relation cost, edge, its new
        end), cheapest first (ties by subject, predicate, object)."""
        j, u, w = self.order[step]
        hg = self.f[u]
        assert hg is not None
        found = []
        for edge in self.adjacency(hg):
            tg = edge.other(hg)
            rel = self.cands.relation_cost(j, edge.predicate)
            if rel is None:
                continue
            if self.f[w] is not None:  # closes a cycle: the other end must be the mapped node
                if self.f[w] != tg or edge.subject == edge.object:
                    continue
                node = 0.0
            else:
                if tg in used:
                    continue
                c = self.cands.node_cost(w, tg)
                if c is None:
                    continue
                node = c
            found.append((node + rel, edge.subject, edge.predicate, edge.object, edge, tg))
        found.sort(key=lambda o: o[:4])
        return [(total, edge, tg) for total, _, _, _, edge, tg in found]

    def expand(self, step: int, used: set[str], cost: float) -> None:
        """Map pattern edge `order[step]` every viable way within the bound, depth first."""
        f, chosen, stats, best = self.f, self.chosen, self.stats, self.best
        if step == len(self.order):
            nodes = tuple(x for x in f if x is not None)
            edges = tuple(e for e in chosen if e is not None)
            stats.complete += 1
            best.push(Match(graph_semantic_distance(self.cands, nodes, edges), nodes, edges))
            return
        j, _, w = self.order[step]
        for total, edge, tg in self.options(step, used):
            stats.considered += 1
            if self.max_considered is not None and stats.considered > self.max_considered:
                raise _Exhausted
            bound = cost + total + self.remain_nodes[step] + self.remain_edges[step]
            if best.full and bound >= best.worst - EPS:
                stats.pruned += 1
                continue
            stats.expansions += 1
            fresh = f[w] is None
            chosen[j] = edge
            if fresh and not self.viable(w, tg, used | {tg}):
                chosen[j] = None
                stats.pruned += 1
                continue
            if fresh:
                f[w] = tg
                used.add(tg)
            self.expand(step + 1, used, cost + total)
            chosen[j] = None
            if fresh:
                f[w] = None
                used.discard(tg)


def brute_force_subgraphs(
    pattern: Pattern,
    cands: Candidates,
    graph_nodes: Iterable[str],
    graph_edges: Iterable[GraphEdge],
    k: int | None = None,
) -> list[Match]:
    """Every isomorphic subgraph, sorted by (GSD, key); the first k (the reference for small graphs)."""
    nodes = sorted(set(graph_nodes))
    between: dict[frozenset, list[GraphEdge]] = {}
    for e in graph_edges:
        if e.subject != e.object:
            between.setdefault(frozenset((e.subject, e.object)), []).append(e)
    found: list[Match] = []
    for image in itertools.permutations(nodes, len(pattern.nodes)):
        if any(cands.node_cost(i, x) is None for i, x in enumerate(image)):
            continue
        options = []
        for j, pe in enumerate(pattern.edges):
            fitting = [
                e
                for e in between.get(frozenset((image[pe.head], image[pe.tail])), [])
                if cands.relation_cost(j, e.predicate) is not None
            ]
            options.append(fitting)
        for edges in itertools.product(*options):
            found.append(Match(graph_semantic_distance(cands, image, edges), image, tuple(edges)))
    return sorted(found, key=lambda m: m.order)[:k]


def same_top_k(found: list[Match], every: list[Match], k: int) -> bool:
    """Whether `found` is a top-k of `every` (all matches, sorted): distinct valid matches with the k
    smallest GSDs (which of several matches tied at the k-th GSD is free)."""
    gsd_of = {m.key: m.gsd for m in every}
    return (
        len({m.key for m in found}) == len(found)
        and all(m.key in gsd_of and abs(gsd_of[m.key] - m.gsd) <= EPS for m in found)
        and [round(m.gsd, 9) for m in found] == [round(m.gsd, 9) for m in every[:k]]
    )


def _component(pattern: Pattern, start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        u = todo.pop()
        for e in pattern.edges:
            for a, b in ((e.head, e.tail), (e.tail, e.head)):
                if a == u and b not in seen:
                    seen.add(b)
                    todo.append(b)
    return seen
