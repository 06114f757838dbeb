"""FINDHUBROOTS (thesis Alg. 1): direction-aware breadth-first search for hub roots, in bulk."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from kgqa.graph.reader import in_edges, out_edges
from kgqa.graph.store import GraphStore
from kgqa.types import Direction, EntityWithDirection, Triple


@dataclass
class HubRootSearch:
    """One indexing or retrieval run's search state; `visited` persists across levels (thesis)."""

    store: GraphStore
    is_root: Callable[[str], bool]
    uniform_hop_count: bool = False
    max_frontier_steps: int = 64
    visited: set[tuple[str, Direction]] = field(default_factory=set)

    def find(self, start: Iterable[EntityWithDirection]) -> tuple[list[EntityWithDirection], list[EntityWithDirection]]:
        """Return (hub roots found, entities to continue from at the next level).

        An entity reached forward (as an object) that is a hub root ends its branch: its outbound
        paths belong to its hub. Otherwise the search continues in the entity's direction: forward
        along outgoing triples, backward along incoming ones. With `uniform_hop_count` the search
        takes one hop per call and returns the next frontier instead of continuing."""
        roots: dict[str, EntityWithDirection] = {}
        next_level: list[EntityWithDirection] = []
        frontier = list(start)
        steps = 0
        while frontier and steps < self.max_frontier_steps:
            steps += 1
            expand: list[EntityWithDirection] = []
            for e in frontier:
                key = (e.entity_id, e.direction)
                if key in self.visited:
                    continue
                self.visited.add(key)
                root = self.is_root(e.entity_id)
                if root and e.entity_id not in roots:
                    roots[e.entity_id] = e
                if root and e.direction is Direction.FORWARD:
                    continue
                expand.append(e)
            successors = self._successors(expand)
            if self.uniform_hop_count:
                next_level.extend(successors)
                break
            frontier = successors
        return list(roots.values()), next_level

    def _successors(self, entities: list[EntityWithDirection]) -> list[EntityWithDirection]:
        fwd = {e.entity_id: e for e in entities if e.direction is Direction.FORWARD}
        bwd = {e.entity_id: e for e in entities if e.direction is Direction.BACKWARD}
        out: list[EntityWithDirection] = []
        for t in out_edges(self.store, fwd):
            out.append(_step(fwd[t.subject.id], t, t.object.id, Direction.FORWARD))
        for t in in_edges(self.store, bwd):
            out.append(_step(bwd[t.object.id], t, t.subject.id, Direction.BACKWARD))
        return [e for e in out if (e.entity_id, e.direction) not in self.visited]


def _step(prev: EntityWithDirection, triple: Triple, entity_id: str, direction: Direction) -> EntityWithDirection:
    return EntityWithDirection(entity_id, direction, prev.path + (triple,))


def both_directions(entity_ids: Iterable[str]) -> list[EntityWithDirection]:
    """Start entities, each in both directions (thesis Alg. 2 and 14)."""
    out = []
    for i in entity_ids:
        out.append(EntityWithDirection(i, Direction.FORWARD))
        out.append(EntityWithDirection(i, Direction.BACKWARD))
    return out


#: Remembered levels past which the memo starts afresh (a level holds a few hundred entities).
MEMO_LIMIT = 20_000


class RootLevels:
    """FINDHUBROOTS level by level from a topic entity. With `remember` (the database is open
    read-only, so its edges cannot change) each level's roots, next frontier and visited set are kept:
    a question about a topic seen before reads no edges."""

    def __init__(self, store: GraphStore, is_root: Callable[[str], bool], remember: bool) -> None:
        self.store, self.is_root, self.remember = store, is_root, remember
        self._memo: dict[tuple[str, bool, int], tuple[list, list, frozenset]] = {}

    def levels(
        self, topic_id: str, uniform_hop_count: bool, max_levels: int, check: Callable[[], None] = lambda: None
    ) -> Iterator[list[EntityWithDirection]]:
        """The hub roots found at each level (possibly none), until the frontier is empty or
        `max_levels` is reached; `check` runs before each level's search (a deadline)."""
        frontier = both_directions([topic_id])
        visited: frozenset = frozenset()
        search: HubRootSearch | None = None
        for level in range(max_levels):
            if not frontier:
                return
            check()
            key = (topic_id, uniform_hop_count, level)
            known = self._memo.get(key) if self.remember else None
            if known is not None:
                roots, frontier, visited = known
                search = None  # a later unknown level starts from `visited`
            else:
                if search is None:
                    search = HubRootSearch(self.store, self.is_root, uniform_hop_count, visited=set(visited))
                roots, frontier = search.find(frontier)
                if self.remember:
                    if len(self._memo) >= MEMO_LIMIT:
                        self._memo.clear()
                    visited = frozenset(search.visited)
                    self._memo[key] = (roots, frontier, visited)
            yield roots
