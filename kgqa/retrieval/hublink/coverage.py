"""Coverage scoring, an offline alternative to the thesis's best-match path score.

A question with components asks for several things at once (a title and a property, a venue and a
year). The thesis scores a path by its single best match, so a path matching only the title ties with
one matching the title and the property. Coverage instead averages, over the components, the best
similarity any text of the path (or of the whole hub) reaches for that component:

    path_coverage(p) = mean_c max_{x in texts(p)} sim(c, x)
    hub_coverage(h)  = mean_u best_u(h), u over anchor groups and attributes (`QueryShape.score`)

so a hub that covers every component outranks one that covers a single component perfectly. The
maxima are computed in `retrieval/hublink/hits.py`; this module reads the question's shape off the candidate
hubs and chooses the triples each hub states (`serving_triples`). Without components the question
embedding is the only "component"."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kgqa import deadline
from kgqa.answering.words import is_negative_value
from kgqa.types import Entity, Triple


def component_indices(n_vectors: int) -> list[int]:
    """Which query vectors count as components: 1.. when components exist, else the question (0)."""
    return list(range(1, n_vectors)) or [0]


# -- anchors: values the answer must match ---------------------------------------------------------
#
# A component that names a value (an anchor: "Technical Debt", "2017", a quoted title) is matched by
# name: a hub either contains it (similarity near 1) or it does not; a near miss ("2018" for "2017",
# "Technical Experiment" for "Field Experiment") is a different value, not a weaker match. Anchors of
# the same kind (attached to the same predicate: two years, two properties, two titles) are
# alternatives ("published in 2018 compared to 2020"); anchors of different kinds all constrain the
# answer ("Technical Debt *and* 2017").

#: An anchor matched at least this well is matched by name.
ANCHOR_EXACT = 0.9
#: Hubs must match every anchor group within this of the best hub's match.
ANCHOR_MARGIN = 0.05
#: A triple serves a component only if it matches it at least this well (anchors; attributes).
COMPONENT_MIN_SIM = 0.6
ATTRIBUTE_MIN_SIM = 0.5
#: An attribute's triple whose object is named like the attribute ("authors list") holds the values below it.
CONTAINER_SIM = 0.5
ROOT = "<hub root>"

Sims = Mapping[str, tuple[float, ...]]  # embedded text -> similarity to each query vector


def _sim(sims: Sims, text: str, qi: int) -> float:
    s = sims.get(text, ())
    return s[qi] if qi < len(s) else 0.0


def serve_sim(sims: Sims, triple: Triple, qi: int) -> float:
    """How well a triple states query component `qi`: by its object (a value) or its predicate (an attribute)."""
    return max(_sim(sims, triple.object.text, qi), _sim(sims, triple.predicate, qi))


def anchor_kind(sims: Sims, root: Entity, triples: Iterable[Triple], qi: int) -> str | None:
    """The predicate through which a hub matches anchor `qi` by name (ROOT when the hub root itself
    is the match), or None when it does not match it by name."""
    best, kind = _sim(sims, root.text, qi), ROOT
    for t in triples:
        s = _sim(sims, t.object.text, qi)
        if s > best:
            best, kind = s, t.predicate
    return kind if best >= ANCHOR_EXACT else None


def anchor_groups(kinds: dict[int, list[str]]) -> list[list[int]]:
    """Group anchors (query indices) whose by-name matches hang off the same predicate; `kinds` maps an
    anchor to the kinds observed in the candidate hubs. Anchors never matched by name stay alone."""
    groups: dict[str, list[int]] = {}
    out: list[list[int]] = []
    for qi in sorted(kinds):
        seen = kinds[qi]
        if not seen:
            out.append([qi])
            continue
        key = max(sorted(set(seen)), key=seen.count)
        if key in groups:
            groups[key].append(qi)
        else:
            groups[key] = [qi]
            out.append(groups[key])
    return out


@dataclass(frozen=True)
class QueryShape:
    """The anchor groups (alternatives within a group) and the attribute components, as query indices."""

    groups: tuple[tuple[int, ...], ...]
    attributes: tuple[int, ...]
    negated: tuple[int, ...] = ()  # attributes the question negates, used as filters
    excluded: frozenset[str] = frozenset()  # hubs that only mention a hub the question names

    def units(self, best: dict[int, float]) -> list[float]:
        """A hub's match per unit: each group's best alternative, each attribute's best similarity."""
        return [max(best.get(qi, 0.0) for qi in g) for g in self.groups] + [best.get(qi, 0.0) for qi in self.attributes]

    def score(self, best: dict[int, float]) -> float:
        """Mean over units: a hub that satisfies every constraint outranks one matching a single one."""
        units = self.units(best)
        return sum(units) / len(units) if units else 0.0

    def passing(self, bests: dict[str, dict[int, float]]) -> set[str]:
        """Hubs that match every anchor group matched by name somewhere within ANCHOR_MARGIN of the
        best hub (all hubs when no hub satisfies all of them)."""
        ok = set(bests) - self.excluded
        for g in self.groups:
            group_best = {h: max(b.get(qi, 0.0) for qi in g) for h, b in bests.items()}
            top = max(group_best.values(), default=0.0)
            if top >= ANCHOR_EXACT:
                ok &= {h for h, s in group_best.items() if s >= top - ANCHOR_MARGIN}
        return ok or set(bests) - self.excluded or set(bests)


def read_shape(
    anchors: list[bool], negated: list[bool], hubs: list[tuple[Entity, list[Triple]]], sims: Sims
) -> QueryShape:
    """The question's shape, read off the candidate hubs (root, triples):
    - a component matched by name somewhere is an anchor if the question wrote it as a name, or if
      its by-name matches beat its best predicate match ("controlled experiment" written in lower case);
    - anchors attached to the same predicate are alternatives (see `anchor_groups`);
    - when an anchor names a hub ("the paper 'X'"), hubs that merely link to that hub are left out,
      unless the question asks for that link ("which papers *cite* 'X'");
    - a negated value ("not evaluated with a case study") leaves out the hubs that have it."""
    n = len(anchors)
    if n == 0:
        return QueryShape((), (0,))
    kinds: dict[int, dict[str, str]] = {qi: {} for qi in range(1, n + 1)}
    by_object = dict.fromkeys(range(1, n + 1), 0.0)
    by_predicate = dict.fromkeys(range(1, n + 1), 0.0)
    for root, triples in hubs:
        for qi in range(1, n + 1):
            kind = anchor_kind(sims, root, triples, qi)
            if kind is not None:
                kinds[qi][root.id] = kind
            if not anchors[qi - 1]:
                by_object[qi] = max([by_object[qi]] + [_sim(sims, t.object.text, qi) for t in triples])
                by_predicate[qi] = max([by_predicate[qi]] + [_sim(sims, t.predicate, qi) for t in triples])
    negated_qis = tuple(qi for qi in range(1, n + 1) if qi - 1 < len(negated) and negated[qi - 1])
    by_name = {qi for qi in range(1, n + 1) if anchors[qi - 1] or (kinds[qi] and by_object[qi] > by_predicate[qi])}
    anchor_qis = [qi for qi in sorted(by_name) if qi not in negated_qis]
    negative_values = {qi for qi in negated_qis if qi in by_name}  # "not evaluated with a case study"
    attributes = tuple(qi for qi in range(1, n + 1) if qi not in by_name)
    excluded: set[str] = {hub for qi in negative_values for hub in kinds[qi]}
    if excluded >= {root.id for root, _ in hubs}:
        excluded = set()
    for qi in anchor_qis:
        if ROOT in kinds[qi].values():
            excluded |= {
                hub
                for hub, kind in kinds[qi].items()
                if kind != ROOT and max((_sim(sims, kind, a) for a in attributes), default=0.0) < ATTRIBUTE_MIN_SIM
            }
    groups = anchor_groups({qi: list(kinds[qi].values()) for qi in anchor_qis})
    return QueryShape(
        tuple(tuple(g) for g in groups),
        attributes,
        tuple(qi for qi in negated_qis if qi not in negative_values),
        frozenset(excluded),
    )


@dataclass(frozen=True)
class Serving:
    """What a hub states for the question, and whether it satisfies the negated attributes."""

    triples: list[Triple]
    satisfies_negations: bool


def serving_triples(
    sims: Sims, root: Entity, paths: list[tuple[Triple, ...]], shape: QueryShape, margin: float
) -> Serving:
    """The triples of a hub that state what the question asks:
    - for each anchor not matched by the root itself, the triples matching it best;
    - for each negated attribute ("no input data"), its best-matching triples with a negative value;
    - for each other attribute, the triples matching it best (all of them when several tie: "the
      evaluation methods of ..."), unless it only names the kind of a chosen anchor ("Ingo Weber as
      an author"); among them those about the same node as a chosen triple or below one (with the
      triples linking them), when there are any; an attribute matched by a container node ("authors" -> the authors list) is stated by the leaves below it."""
    at = _Positions(paths)
    triples = list(at.where)
    chosen: list[Triple] = []
    have: set[Triple] = set()
    satisfied = True

    def best_of(qi: int, floor: float) -> tuple[float, list[Triple]]:
        scored = [(serve_sim(sims, t, qi), t) for t in deadline.checked(triples, "choosing a hub's triples")]
        top = max((s for s, _ in scored), default=0.0)
        return top, [t for s, t in scored if s >= max(floor, top - margin)]

    def add(ts: Iterable[Triple]) -> None:
        for t in ts:
            if t not in have:
                have.add(t)
                chosen.append(t)

    for qi in (qi for g in shape.groups for qi in g):
        top, best = best_of(qi, COMPONENT_MIN_SIM)
        if _sim(sims, root.text, qi) < top:
            add(best)
    for qi in shape.negated:
        _, best = best_of(qi, ATTRIBUTE_MIN_SIM)
        negative = [t for t in best if is_negative_value(t.object.text)]
        satisfied = satisfied and bool(negative)
        add(negative)
    constraints = list(chosen)
    for qi in shape.attributes:
        if qi in shape.negated:
            continue
        top, best = best_of(qi, ATTRIBUTE_MIN_SIM)
        if any(serve_sim(sims, t, qi) >= top - margin for t in chosen) or _names_kind_of(best, constraints, at):
            continue
        near = _near_constraints(best, constraints, at) or [(t, ()) for t in best]
        containers = {t for t, _ in near if _sim(sims, t.object.text, qi) >= CONTAINER_SIM}
        for t, chain in deadline.checked(near, "choosing a hub's triples"):
            add(chain)
            add(at.leaves_below([t]) if t in containers else [t])
    return Serving(chosen, satisfied)


class _Positions:
    """Where each triple of a hub's paths sits: (path number, position) in path order, its first place
    in each path. Built once per hub, so that the steps below cost one look-up per triple instead of a
    scan of every path (a super-node keeps thousands of paths)."""

    def __init__(self, paths: list[tuple[Triple, ...]]) -> None:
        self.paths = paths
        self.where: dict[Triple, list[tuple[int, int]]] = {}
        for n, p in enumerate(deadline.checked(paths, "reading a hub's paths")):
            for i, t in enumerate(p):
                places = self.where.setdefault(t, [])
                if not places or places[-1][0] != n:
                    places.append((n, i))

    def leaves_below(self, triples: list[Triple]) -> list[Triple]:
        """Each triple, or where paths continue past it, the last triples of those paths (used for
        attributes matched by a container node named like them: "authors" -> the "authors list")."""
        out: list[Triple] = []
        for t in triples:
            ends = [self.paths[n][-1] for n, i in self.where.get(t, ()) if i < len(self.paths[n]) - 1]
            out += ends or [t]
        return list(dict.fromkeys(out))


def _near_constraints(
    triples: list[Triple], constraints: list[Triple], at: _Positions
) -> list[tuple[Triple, tuple[Triple, ...]]]:
    """The triples about the same node as a constraint triple (its siblings), or below one on a path,
    each with the triples linking it to that constraint ("Giulia Marchetti" -> affiliation -> located in)."""
    nodes = {c.subject for c in constraints}
    marks: dict[int, list[int]] = defaultdict(list)  # path number -> positions of constraint triples
    for c in constraints:
        for n, i in at.where.get(c, ()):
            marks[n].append(i)
    out: list[tuple[Triple, tuple[Triple, ...]]] = []
    for t in deadline.checked(triples, "choosing a hub's triples"):
        chain: tuple[Triple, ...] | None = () if t.subject in nodes else None
        for n, i in at.where.get(t, ()) if chain is None else ():
            below = [j for j in marks.get(n, ()) if j < i]
            if below:
                chain = at.paths[n][max(below) + 1 : i]
                break
        if chain is not None:
            out.append((t, chain))
    return out


def _names_kind_of(attribute_triples: list[Triple], constraints: list[Triple], at: _Positions) -> bool:
    """Whether the attribute's triples lead to a chosen constraint triple (the attribute "author"
    matches the authors edge above the chosen "Ingo Weber"): then it only names the constraint's kind."""
    wanted = set(attribute_triples)
    for c in set(constraints):
        for n, i in at.where.get(c, ()):
            if wanted.intersection(at.paths[n][:i]):
                return True
    return False
