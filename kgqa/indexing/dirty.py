"""Dirty hubs: which hubs a graph change touches, marked durably in the same transaction as the change.

A hub path runs from its root through entities that are not hub roots. So the hubs whose paths a
change can touch are found by walking backward from the change and stopping at hub roots:

- a triple added or deleted changes the paths through its subject: walk backward from the subject
  (the subject itself when it is a root);
- an entity whose label changed appears in the paths (and texts) through it or ending at it, and an
  entity that became or stopped being a root changes where paths stop: mark it if it is a root (now)
  and walk backward from it, past it.

The walk uses the graph after the change and at most the index's maximum path length steps. It may
mark a hub whose path-hash set did not change (the update then finds it unchanged); it never misses
one whose set changed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kgqa_procedures.udfs import UdfContext

from kgqa.graph.layout import require_triples
from kgqa.graph.reader import stored_triples
from kgqa.graph.store import GraphStore
from kgqa.indexing.metadata import IndexInfo, read_info, stored_params
from kgqa.vectorstores.base import HubVectorStore

#: The node table of the marks (schema/graph/002_dirty_hubs.cypher).
DIRTY_TABLE = "kgqa_DirtyHub"
_CHUNK = 5000


@dataclass(frozen=True)
class _Facts:
    label: str
    is_root: bool


@dataclass
class DirtyTracker:
    """Collects what one graph change touched and, still inside its transaction, marks the hubs."""

    store: GraphStore
    criteria: UdfContext
    max_hops: int
    before: dict[str, _Facts | None] = field(default_factory=dict)
    subjects: set[str] = field(default_factory=set)
    marked: list[str] = field(default_factory=list)

    def is_root(self, types: list[str] | None, is_literal: bool, out_degree: int) -> bool:
        """isHubRoot with the index's criteria (literals never are)."""
        return not is_literal and self.criteria.meets_criteria(types, int(out_degree or 0))

    def entities(self, ids: Iterable[str]) -> None:
        """Before writing: remember the label and root status of entities not seen yet."""
        new = [i for i in dict.fromkeys(ids) if i not in self.before]
        found = self._facts(new)
        for i in new:
            self.before[i] = found.get(i)

    def triples(self, rows: list[tuple[str, str, str]], *, deleting: bool = False) -> list[tuple[str, str, str]]:
        """Before writing: of these (subject, predicate, object) triples, those that change the graph
        (new ones when adding, stored ones when deleting); their subjects are walked from."""
        present = stored_triples(self.store, rows)
        changing = [r for r in dict.fromkeys(rows) if (r in present) == deleting]
        self.subjects.update(s for s, _, _ in changing)
        return changing

    def finish(self) -> list[str]:
        """After writing, in the same transaction: find the affected hubs and mark them dirty."""
        after = self._facts(list(self.before))
        passthrough: set[str] = set()
        flipped: set[str] = set()  # became or stopped being a root: its own hub is added or removed
        for i, old in self.before.items():
            new = after.get(i)
            was_root = old is not None and old.is_root
            if new is not None and new.is_root != was_root:
                flipped.add(i)
            if i in flipped or (old is not None and new is not None and old.label != new.label):
                passthrough.add(i)
        hubs = self.walk(self.subjects, passthrough) | flipped
        self.marked = sorted(hubs)
        for chunk in _chunks(self.marked):
            self.store.run("update/mark_dirty", {"ids": chunk})
        return self.marked

    def walk(self, subjects: set[str], passthrough: set[str]) -> set[str]:
        """The hub roots whose paths reach the subjects (or a subject that is itself a root), or
        reach or start at a passthrough entity; one query per step backward."""
        facts = self._facts(list(subjects | passthrough))
        hubs: set[str] = set()
        frontier: set[str] = set()
        for s in subjects:
            if s in facts and facts[s].is_root:
                hubs.add(s)
            else:
                frontier.add(s)
        for e in passthrough:
            if e in facts and facts[e].is_root:
                hubs.add(e)
            frontier.add(e)
        visited = set(frontier)
        for _ in range(self.max_hops):
            if not frontier:
                break
            step: set[str] = set()
            for chunk in _chunks(sorted(frontier)):
                for sid, types, is_literal, degree in self.in_neighbours(chunk):
                    if sid in visited:
                        continue
                    visited.add(sid)
                    if self.is_root(types, is_literal, degree):
                        hubs.add(sid)
                    else:
                        step.add(sid)
            frontier = step
        return hubs

    def _facts(self, ids: list[str]) -> dict[str, _Facts]:
        out: dict[str, _Facts] = {}
        for chunk in _chunks(ids):
            for eid, label, types, is_literal, degree in self.entity_rows(chunk):
                out[eid] = _Facts(label or "", self.is_root(types, is_literal, degree))
        return out

    def in_neighbours(self, ids: list[str]) -> list:
        """(id, types, is_literal, out-degree) of the distinct subjects of triples into `ids`."""
        return self.store.run("update/in_neighbours", {"ids": ids})

    def entity_rows(self, ids: list[str]) -> list:
        """(id, label, types, is_literal, out-degree) of the entities among `ids`."""
        return self.store.run("update/entity_facts", {"ids": ids})


def dirty_tracker(store: GraphStore, vstore: HubVectorStore) -> DirtyTracker | None:
    """A tracker for the next graph change, with the stored index's hub-root criteria; None when
    there is no index to keep in step (nothing to mark). Refused on a user's own graph (HubLink
    never writes to it)."""
    require_triples(store, "cannot change the graph")
    info = read_info(vstore)
    if info is None:
        return None
    ensure_dirty_table(store)
    return DirtyTracker(store, *tracker_criteria(info))


def tracker_criteria(info: IndexInfo) -> tuple[UdfContext, int]:
    """The stored index's hub-root criteria and maximum path length (the steps a walk takes)."""
    params = stored_params(info)
    criteria = UdfContext(frozenset(params.hub_types), params.min_out_degree, params.criteria_mode)
    return criteria, params.effective_max_path_length


def ensure_dirty_table(store: GraphStore) -> None:
    """Create the DirtyHub table in a database made before it existed (outside any transaction)."""
    require_triples(store, "cannot mark hubs dirty")
    if not store.has_table(DIRTY_TABLE):
        store.apply_migrations("graph")


def dirty_hubs(store: GraphStore) -> list[str]:
    """The hub ids marked dirty (none when the table does not exist yet)."""
    if not store.has_table(DIRTY_TABLE):
        return []
    return [r[0] for r in store.run("update/dirty_hubs")]


def count_dirty(store: GraphStore) -> int:
    """How many hubs are marked dirty."""
    if not store.has_table(DIRTY_TABLE):
        return 0
    return int(store.scalar("update/count_dirty") or 0)


def clear_dirty(store: GraphStore, hub_ids: list[str]) -> None:
    """Delete these marks (after the rebuild that covered them committed), in one transaction."""
    if not hub_ids or not store.has_table(DIRTY_TABLE):
        return
    with store.transaction():
        for chunk in _chunks(hub_ids):
            store.run("update/clear_dirty", {"ids": chunk})


def _chunks(items: list, size: int = _CHUNK):
    for i in range(0, len(items), size):
        yield items[i : i + size]
