"""Follows a relation chain over the stored graph: one set-based Cypher query per hop over the whole
frontier (`GraphLayout.step`), with a fan-out cap; the last hop never reaches the topic or, going straight
back, where it came from (nor do the hops before it unless the path is plain: `revisit`). Keeps, for each
reached entity, the triples that reached it, to cite them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kgqa import deadline
from kgqa.graph.layout import layout_of
from kgqa.graph.store import GraphStore
from kgqa.retrieval.chains.schema import types_of
from kgqa.types import Entity, Triple

#: Triples one hop reads at most (the chain is cut there, and says so).
DEFAULT_FANOUT = 20_000
#: Entities an end entity is traced back through, per hop, for its evidence.
TRACE_WIDTH = 3


class Narrows(Protocol):
    """Keeps some of a hop's entities (`narrow`: None where it keeps them all) and the triples that
    show why each kept one was kept."""

    triples: dict[str, list[Triple]]

    def narrow(self, hop: int, types: set[str], reached: dict[str, Entity]) -> dict[str, Entity] | None:
        """The entities of hop `hop` (of `types`) to go on from, or None for all."""
        ...


@dataclass
class ChainResult:
    """The end entities of a followed chain, ranked (most supporting paths first), and the triples
    that reach each of them, hop by hop."""

    steps: tuple[tuple[str, int], ...]
    start: list[Entity]
    ends: list[Entity]
    support: dict[str, int] = field(default_factory=dict)  # end id -> supporting triples at the last hop
    reached_by: list[dict[str, list[Triple]]] = field(default_factory=list)  # per hop: entity id -> triples
    truncated: bool = False
    narrowed_by: dict[str, list[Triple]] = field(default_factory=dict)  # entity id -> its triple to a named value

    def evidence(self, end_id: str, limit: int = 12) -> list[Triple]:
        """The triples of a few paths from the topic to `end_id`, topic side first."""
        out: list[Triple] = []
        wanted = [end_id]
        for hop in range(len(self.reached_by) - 1, -1, -1):
            prev: dict[str, None] = {}  # in the order reached: the same triples in every process
            for eid in wanted:
                for t in self.reached_by[hop].get(eid, [])[:TRACE_WIDTH]:
                    out.append(t)
                    direction = self.steps[hop][1]
                    prev[t.subject.id if direction > 0 else t.object.id] = None
                out.extend(self.narrowed_by.get(eid, []))  # read after the triple that reached it
            wanted = list(prev)[: TRACE_WIDTH * 2]
        ordered = list(reversed(out))
        return ordered[-limit:]  # over the limit, the end side stays (the answer's own triple last)


def follow_chain(
    store: GraphStore,
    start: list[Entity],
    steps: tuple[tuple[str, int], ...],
    fanout: int = DEFAULT_FANOUT,
    revisit: bool = False,
    named: Callable[[Entity], bool] | None = None,
    exclude: frozenset[str] = frozenset(),
    narrowers: Sequence[Narrows] = (),
    whole_last: bool = False,
) -> ChainResult:
    """The entities the chain reaches from `start`, one set-based read per hop (the graph's layout).
    The last hop never reaches the topic or, going straight back, where it came from; with `revisit`
    the hops before it may ("the writers of the films directed by the director of X" include X's own),
    without it no hop does ("films that *share* a director with X", "the *other* films ...").
    Where the question names some of a hop's entities before the last (`named`: "the affiliation of
    Sofia Horvat, an author of X"), the chain goes on from those only. The last hop never reaches an
    entity in `exclude` either. Each of `narrowers` may keep some of a hop's entities: those with a value
    the question names ("which *drama* movies did X direct"), the latest ("X's *latest* film"). With
    `whole_last` the last hop reaches all it leads to, the topic too ("the authors of X's latest paper")."""
    layout = layout_of(store)
    frontiers: list[dict[str, Entity]] = [{e.id: e for e in start}]
    start_ids = {e.id for e in start}
    result = ChainResult(steps, start, [])
    last_counts: dict[str, int] = {}
    for i, (predicate, direction) in enumerate(steps):
        deadline.check("chain hop")
        here = frontiers[-1]
        if not here:
            break
        rows = layout.step(list(here.values()), predicate, direction, fanout)
        # the frontier's order, whichever read the layout chose (a key read per entity comes back in
        # frontier order, a list read in storage order or, scanned in parallel, in no fixed order), and
        # one entity's neighbours by label: the answer's order and evidence must not depend on the read
        position = {k: n for n, k in enumerate(here)}
        rows = sorted(rows, key=lambda r: (position.get(r[0], len(position)), (r[2] or "").casefold(), str(r[1])))
        if len(rows) >= fanout:
            result.truncated = True
        strict = (not revisit or i == len(steps) - 1) and not (whole_last and i == len(steps) - 1)
        back = i >= 1 and steps[i - 1] == (predicate, -direction)
        excluded = (set(frontiers[-2]) if back else set()) | start_ids if strict else set()
        if i == len(steps) - 1:
            excluded |= exclude
        reached: dict[str, Entity] = {}
        by: dict[str, list[Triple]] = defaultdict(list)
        counts: dict[str, int] = defaultdict(int)
        for from_id, to_id, to_label, to_literal, to_types in deadline.checked(rows, "chain hop"):
            if to_id in excluded:
                continue
            node = reached.get(to_id) or Entity(to_id, to_label or "", tuple(to_types or ()), bool(to_literal))
            reached[to_id] = node
            src = here[from_id]
            triple = Triple(src, predicate, node) if direction > 0 else Triple(node, predicate, src)
            if len(by[to_id]) < TRACE_WIDTH:
                by[to_id].append(triple)
            counts[to_id] += 1
        if named is not None and i < len(steps) - 1:
            chosen = {k: e for k, e in reached.items() if named(e)}
            if chosen and len(chosen) < len(reached):
                reached, by = chosen, defaultdict(list, {k: v for k, v in by.items() if k in chosen})
        for narrower in narrowers:
            types = set(types_of(layout, reached.values()))
            kept = narrower.narrow(i, types, reached)
            if kept is not None:
                reached, by = kept, defaultdict(list, {k: v for k, v in by.items() if k in kept})
                counts = defaultdict(int, {k: v for k, v in counts.items() if k in kept})
        frontiers.append(reached)
        result.reached_by.append(dict(by))
        last_counts = dict(counts)
    for narrower in narrowers:
        for k, ts in narrower.triples.items():
            result.narrowed_by.setdefault(k, []).extend(ts)
    if len(frontiers) == len(steps) + 1:
        ends = frontiers[-1]
        result.ends = sorted(ends.values(), key=lambda e: -last_counts.get(e.id, 0))  # ties: reached order (above)
        result.support = last_counts
    return result
