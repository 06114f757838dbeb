"""Relationship and link questions from the graph: "how is X related to Y", "what connects X and Y",
"is X cited by Y". The two linked entities' paths of one or two triples (either direction) are read
with one Cypher query; the answer states them from predicate and entity labels, and a yes/no question
says yes or no and why. `result.paths` holds each path as its triples."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Container
from dataclasses import dataclass
from typing import Any

from kgqa.answering.catalog import Catalog
from kgqa.answering.exact import QUERY, Exact, _masked, _result
from kgqa.answering.question import asks_yes_no
from kgqa.answering.render import attribute_noun, in_the_passive, verbal
from kgqa.answering.words import agreeing, join_items, number_words, plural, same_word
from kgqa.graph.layout import GraphLayout, TripleLayout, layout_of
from kgqa.graph.store import GraphStore
from kgqa.question.components import VERB_FORMS
from kgqa.question.linking import Links
from kgqa.question.meaning import asks_link, asks_together
from kgqa.question.verbs import share_a_stem
from kgqa.types import Entity, Triple

MAX_PATHS = 50  # paths read per question
MAX_MIDDLES = 2_000  # neighbours whose edges are read for two-step paths (off the Cypher route)
SHOWN = 5  # two-step paths written out
MIN_LABEL = 4  # shortest entity label a question's names are matched by without the catalog
MAX_LABELS = 200  # labels read per question there (longest first)


@dataclass
class End:
    """One linked entity of the question."""

    start: int
    id: str
    label: str
    is_hub: bool


def ends_of(links: Links, cat: Catalog) -> list[End]:
    """The question's linked hubs and values, in the order it writes them."""
    out = [End(m.start, m.hubs[0], cat.hubs[m.hubs[0]], True) for m in links.hubs]
    out += [End(m.start, m.facts[0].value_id, m.label, False) for m in links.values if m.facts]
    out.sort(key=lambda e: e.start)
    seen: set[str] = set()
    return [e for e in out if not (e.id in seen or seen.add(e.id))]  # type: ignore[func-returns-value]


def paths_between(store: GraphStore, a: str, b: str) -> list[list[Triple]]:
    """The paths of one or two triples between entities `a` and `b`, shortest first: one Cypher
    query on HubLink's triple layout in Kùzu, the layout's edge reads elsewhere (a property graph,
    the graph in Postgres)."""
    layout = layout_of(store)
    found = _paths_in_cypher(store, a, b) if isinstance(layout, TripleLayout) else _paths_by_edges(layout, a, b)
    forward = getattr(layout, "forward_predicates", lambda: None)()
    if forward is not None:  # forwards first: the order parallel edges are said in (`once_per_edge` keeps it)
        found.sort(key=lambda p: sum(t.predicate not in forward for t in p))
    out = once_per_edge(found, forward)
    out.sort(key=lambda p: (len(p), any(t.object.is_literal or t.subject.is_literal for t in p), _ids(p)))
    return out


def once_per_edge(paths: list[list[Triple]], forward: Container[str] | None) -> list[list[Triple]]:
    """Each path once, in the order first met. With `forward` (the predicates a user's rel tables are
    read by in their own direction), paths over the same edges are one path whichever way each edge is
    read, and the reading kept is the one with the fewest backward predicates ("Keanu Reeves acted in
    'Speed'", not "the actor of 'Speed' is Keanu Reeves"); parallel edges with other qualifiers stay
    apart. Without it, paths are the same when their triples are."""
    kept: dict[tuple[Any, ...], list[Triple]] = {}

    def backward(path: list[Triple]) -> int:
        return 0 if forward is None else sum(t.predicate not in forward for t in path)

    for path in paths:
        key: tuple[Any, ...] = (
            tuple(t.canonical for t in path)
            if forward is None
            else tuple((frozenset((t.subject.id, t.object.id)), t.qualifiers) for t in path)
        )
        if key not in kept or backward(path) < backward(kept[key]):
            kept[key] = path
    return list(kept.values())


def _paths_in_cypher(store: GraphStore, a: str, b: str) -> list[list[Triple]]:
    out = []
    for nodes, rels in store.run("answering/link_paths", {"a": a, "b": b, "limit": MAX_PATHS}):
        by_id = {_key(n["_id"]): _entity(n) for n in nodes}
        out.append([Triple(by_id[_key(r["_src"])], r["predicate"], by_id[_key(r["_dst"])]) for r in rels])
    return out


def _paths_by_edges(layout: GraphLayout, a: str, b: str) -> list[list[Triple]]:
    """The same paths from two rounds of edge reads: `a`'s edges, then those of its non-literal
    neighbours (at most MAX_MIDDLES of them)."""
    out: list[list[Triple]] = []
    middles: dict[str, list[Triple]] = {}
    for t in layout.out_edges([a]) + layout.in_edges([a]):
        other = t.object if t.subject.id == a else t.subject
        if other.id == b:
            out.append([t])
        elif not other.is_literal and other.id != a:
            middles.setdefault(other.id, []).append(t)
    ids = list(middles)[:MAX_MIDDLES]
    if ids:
        for t in layout.out_edges(ids) + layout.in_edges(ids):
            for near, far in ((t.subject, t.object), (t.object, t.subject)):
                if near.id in middles and far.id == b:
                    out += [[first, t] for first in middles[near.id]]
    return out[:MAX_PATHS]


def _key(internal: Any) -> tuple:
    return (internal["table"], internal["offset"]) if isinstance(internal, dict) else (internal,)


def _entity(node: dict[str, Any]) -> Entity:
    return Entity(
        node["id"], node.get("label") or node["id"], tuple(node.get("types") or ()), bool(node.get("is_literal"))
    )


def _ids(path: list[Triple]) -> tuple[str, ...]:
    return tuple(f"{t.subject.id}|{t.predicate}|{t.object.id}" for t in path)


def _name(e: Entity, hubs: Container[str]) -> str:
    return f"'{e.text}'" if e.id in hubs else e.text


def statement(t: Triple, hubs: Container[str]) -> str:
    """One triple as a clause from its labels: "'A' cites 'B'", "the author of 'A' is Lena Hoffmeier";
    an edge's own properties after it: "Keanu Reeves acted in 'Speed' (role Jack Traven)"."""
    s, o = _name(t.subject, hubs), _name(t.object, hubs)
    notes = f" ({', '.join(f'{k} {v}' for k, v in t.qualifiers)})" if t.qualifiers else ""
    if verbal(t.predicate):
        return f"{s} {t.predicate.replace('_', ' ')} {o}{notes}"  # "written_by": "written by"
    return f"the {attribute_noun(t.predicate)} of {s} is {o}{notes}"


def _path_text(path: list[Triple], hubs: Container[str]) -> str:
    return " and ".join(statement(t, hubs) for t in path)


def _names_predicate(question: str, predicate: str) -> bool:
    words = [w for w in re.findall(r"[a-z]+", question.lower()) if len(w) >= 4]
    return any(
        same_word(w, p) or w[:4] == p[:4] and min(len(w), len(p)) >= 4
        for p in re.findall(r"[a-z]+", predicate.lower())
        if len(p) >= 4
        for w in words
    )


def connection(question: str, links: Links, cat: Catalog, store: GraphStore) -> Exact | None:
    """How the first two linked entities of `question` are linked in the graph (None when it links
    fewer than two)."""
    ends = ends_of(links, cat)
    if len(ends) < 2:
        return None
    together = asks_together(_masked(question, links))
    return link_answer(question, ends[0], ends[1], store, lambda e: e.id in cat.hubs, together, cat.attributes())


def connection_by_labels(question: str, store: GraphStore, hub_types: Collection[str]) -> Exact | None:
    """A link question answered without the catalog (a graph past its ceiling, or with several hub
    types): the two longest entity labels the question writes as whole words (`labels_in_text`, one
    pass over the labels), linked as `connection` links them. None when the question asks for no link,
    or names fewer than two entities, or a name that several entities share (which one is meant is
    the catalog linker's question)."""
    if not asks_link(question):
        return None
    text = question.lower()
    named: dict[str, list[Entity]] = {}
    for entity in layout_of(store).labels_in_text(text, MIN_LABEL, MAX_LABELS):
        if not entity.is_literal:
            named.setdefault(entity.text.lower(), []).append(entity)
    types = set(hub_types)
    ends: list[End] = []
    spans: list[tuple[int, int]] = []
    for label, entities in sorted(named.items(), key=lambda kv: (-len(kv[0]), kv[0])):
        m = re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text)
        if m is None or any(m.start() < end and start < m.end() for start, end in spans):
            continue
        if len(entities) > 1:
            return None
        spans.append(m.span())
        ends.append(End(m.start(), entities[0].id, entities[0].text, bool(types & set(entities[0].types))))
        if len(ends) == 2:
            break
    if len(ends) < 2:
        return None
    masked = text
    for start, end in sorted(spans, reverse=True):
        masked = masked[:start] + "x" + masked[end:]
    if not asks_link(masked):  # the link word was part of a name ("Linked Data Quality")
        return None
    ends.sort(key=lambda e: e.start)
    together = asks_together(masked)
    exact = link_answer(question, ends[0], ends[1], store, lambda e: bool(types & set(e.types)), together)
    exact.labels = [e.label for e in ends]
    return exact


def link_answer(
    question: str,
    a: End,
    b: End,
    store: GraphStore,
    is_hub: Callable[[Entity], bool],
    together: bool = False,
    labels: Collection[str] = (),
) -> Exact:
    """The answer to a link question between entities `a` and `b`: the paths of one or two triples
    between them, or yes / no and why; `is_hub` tells which entities on the paths are hubs (quoted);
    `together`: the question asks whether the two were together (`asks_together`, names masked);
    `labels`: the hubs' attribute names, a verb naming one of which asks for that relation (the catalog's,
    read once per graph state; none where there is no catalog)."""
    paths = paths_between(store, a.id, b.id)
    hubs = {e.id for p in paths for t in p for e in (t.subject, t.object) if is_hub(e)}
    hubs |= {e.id for e in (a, b) if e.is_hub}
    sources = [(e.id, e.label) for e in (a, b) if e.is_hub]
    cite = "".join(f"[{i}]" for i in range(1, len(sources) + 1)) or QUERY
    query = {"name": "answering/link_paths", "between": [a.label, b.label]}
    structured = [[[t.subject.text, t.predicate, t.object.text] for t in p] for p in paths]
    triples = list(dict.fromkeys(t.canonical for p in paths[: SHOWN + 5] for t in p))
    an, bn = (f"'{e.label}'" if e.is_hub else e.label for e in (a, b))
    if together:
        return _together(a, b, an, bn, paths, hubs, query, structured)
    if asks_yes_no(question):
        asks = _asks_predicate(question, a, b, labels)
        return _yes_no(question, a, b, an, bn, paths, hubs, sources, triples, query, structured, cite, asks)
    if not paths:
        text = f"The graph states no link of one or two steps between {an} and {bn} {QUERY}."
        return Exact(text, _result("relationship", None, [], query=query, paths=[]), sources)
    if _IN_COMMON.search(question) and (shared := _shared(paths, a.id)):
        exact = _in_common(an, bn, a.id, shared, hubs, cite, sources, query, structured)
        said = {_middle(p, a.id).id for p in shared}  # an entity said to be shared is not said again as a path
        others = [
            p
            for p in paths
            if p not in shared
            and not any(e.is_literal for t in p for e in (t.subject, t.object))
            and not (len(p) == 2 and _middle(p, a.id).id in said)
        ]
        if others:  # "... ; also linked: 'A' directed by D and the starred actor of 'B' is D."
            exact.text = (
                exact.text[:-1] + "; also linked: " + "; ".join(_path_text(p, hubs) for p in others[:SHOWN]) + "."
            )
        return exact
    direct = [p for p in paths if len(p) == 1]
    shown = direct or paths[:SHOWN]
    clauses = [_path_text(p, hubs) for p in shown]
    how = "directly" if direct else "through one other entity"
    text = f"{an} and {bn} are linked {how} {cite}: " + "; ".join(clauses)
    if not direct and len(paths) > SHOWN:
        text += f"; and {len(paths) - SHOWN} more paths"
    text += "."
    items = [" → ".join(f"{t.subject.text} —{t.predicate}→ {t.object.text}" for t in p) for p in shown]
    return Exact(text, _result("relationship", None, items, query=query, paths=structured), sources, triples)


#: "what do A and B have in common", "what do A and B share", "what is common to A and B".
_IN_COMMON = re.compile(r"\bin common\b|\bcommon to\b|\bshare\b|\bshared by\b", re.IGNORECASE)


def _shared(paths: list[list[Triple]], a: str) -> list[list[Triple]]:
    """The two-step paths through an entity or a value both ends hold by one predicate in one direction:
    both have the genre G (or the year 1956), or G created both."""
    out = []
    for p in paths:
        if len(p) != 2 or p[0].predicate != p[1].predicate:
            continue
        middle = _middle(p, a)
        if (p[0].object.id == middle.id) == (p[1].object.id == middle.id):
            out.append(p)
    return out


def _in_common(
    an: str,
    bn: str,
    a: str,
    shared: list[list[Triple]],
    hubs: Container[str],
    cite: str,
    sources: list[tuple[str, str]],
    query: dict,
    structured: list,
) -> Exact:
    """ "'A' and 'B' both have the cuisine Thai and the suit Vegetarian; both use Ginger; Sunee Chaiyaporn
    created both": what the two ends share, by predicate (`a`: the first end's id)."""
    held: dict[str, list[str]] = {}
    done: dict[str, list[str]] = {}
    by: dict[str, list[str]] = {}
    for p in shared:
        middle = _middle(p, a)
        name = _name(middle, hubs)
        if any(name in names for group in (held, done, by) for names in group.values()):
            continue  # the same entity read both ways ("creator" and "created")
        pointing_out = p[0].object.id == middle.id
        if pointing_out and verbal(p[0].predicate):
            done.setdefault(p[0].predicate, []).append(name)
        elif pointing_out:
            held.setdefault(p[0].predicate, []).append(name)
        else:
            by.setdefault(p[0].predicate, []).append(name)
    parts = []
    if held:
        nouns = [f"the {attribute_noun(k, len(v))} {join_items(v)}" for k, v in held.items()]
        parts.append("both have " + join_items(nouns))
    for k, v in done.items():
        phrase = k.replace("_", " ")
        verb = f"are {phrase}" if in_the_passive(phrase) else agreeing(phrase, 2)  # "are published by", "acted in"
        parts.append(f"both {verb} {join_items(v)}")
    for k, v in by.items():
        of = (
            f"{k.replace('_', ' ')} both"
            if verbal(k)
            else f"{'is' if len(v) == 1 else 'are'} the {attribute_noun(k)} of both"
        )
        parts.append(f"{join_items(v)} {of}")
    text = f"{an} and {bn}: {'; '.join(parts)} {cite}."
    items = [name for group in (held, done, by) for names in group.values() for name in names]
    triples = list(dict.fromkeys(t.canonical for p in shared for t in p))
    return Exact(text, _result("relationship", None, items, query=query, paths=structured), sources, triples)


def _yes_no(
    question: str,
    a: End,
    b: End,
    an: str,
    bn: str,
    paths: list[list[Triple]],
    hubs: Container[str],
    sources: list[tuple[str, str]],
    triples: list[str],
    query: dict,
    structured: list,
    cite: str,
    asks_predicate: bool,
) -> Exact:
    direct = [p[0] for p in paths if len(p) == 1]
    named = [t for t in direct if _names_predicate(question, t.predicate)]
    between = question[a.start : b.start].lower()
    subject = b.id if re.search(r"\bby\b", between) else a.id  # "is X cited by Y": Y is the subject
    forward = [t for t in named if t.subject.id == subject]

    def answer(yes: bool, why: str) -> Exact:
        value = "yes" if yes else "no"
        text = f"{'Yes' if yes else 'No'}: {why} {cite}."
        return Exact(text, _result("relationship", value, [why], query=query, paths=structured), sources, triples)

    if forward:
        return answer(True, statement(forward[0], hubs))
    if named:
        return answer(False, f"the graph states only the reverse, {statement(named[0], hubs)}")
    if direct and not asks_predicate:
        return answer(True, statement(direct[0], hubs))
    if direct:
        return answer(False, f"the graph links them only as {join_items([statement(t, hubs) for t in direct])}")
    if paths and not asks_predicate:
        return answer(True, f"they are linked through one other entity: {_path_text(paths[0], hubs)}")
    return answer(False, f"the graph states no direct link between {an} and {bn}")


def _together(
    a: End, b: End, an: str, bn: str, paths: list[list[Triple]], hubs: Container[str], query: dict, structured: list
) -> Exact:
    """ "Has A ever worked with B?": yes where a triple links them or an entity (not a literal: a shared year
    is no work together) is linked to both, each such entity cited; no where none is."""
    direct = [p for p in paths if len(p) == 1]
    shared = [p for p in paths if len(p) == 2 and not _middle(p, a.id).is_literal]
    if any(_middle(p, a.id).id in hubs for p in shared):
        shared = [p for p in shared if _middle(p, a.id).id in hubs]  # a shared paper, not only an affiliation
    shared.sort(key=lambda p: p[0].predicate != p[1].predicate)
    if direct:
        shown, head = direct[:SHOWN], "Yes: "
        why = join_items([statement(p[0], hubs) for p in shown])
    elif shared:
        middles = list(dict.fromkeys(_middle(p, a.id).id for p in shared))
        shown = [next(p for p in shared if _middle(p, a.id).id == m) for m in middles[:SHOWN]]
        kind = _middle(shown[0], a.id).types
        noun = kind[0].lower() if kind and all(kind[0] in _middle(p, a.id).types for p in shown) else "entity"
        head = f"Yes, through {number_words(len(middles))} {plural(noun) if len(middles) > 1 else noun}: "
        why = "; ".join(_path_text(p, hubs) for p in shown)
        if len(middles) > SHOWN:
            why += f"; and {len(middles) - SHOWN} more"
    else:
        shown, head, why = [], "No: ", f"the graph links no entity to both {an} and {bn}"
    cited = list(dict.fromkeys(e for p in shown for t in p for e in (t.subject, t.object) if e.id in hubs))
    sources = [(e.id, e.label) for e in cited]
    cite = "".join(f"[{i}]" for i in range(1, len(sources) + 1)) or QUERY
    value = "yes" if shown else "no"
    text = f"{head}{why} {cite}."
    triples = list(dict.fromkeys(t.canonical for p in shown for t in p))
    return Exact(text, _result("relationship", value, [why], query=query, paths=structured), sources, triples)


def _middle(path: list[Triple], a: str) -> Entity:
    """The entity between the two triples of a two-step path from `a`."""
    first = path[0]
    return first.object if first.subject.id == a else first.subject


def _asks_predicate(question: str, a: End, b: End, labels: Collection[str] = ()) -> bool:
    """Whether the question names a relation of its own ("cited", "wrote", "report" of the label "reports
    to" among the graph's predicate `labels`) rather than any link."""
    rest = re.sub(r"'[^']*'|\"[^\"]*\"", " ", question)
    rest = rest.replace(a.label, " ").replace(b.label, " ")
    words = [w for w in re.findall(r"[a-z]+", rest.lower()) if len(w) >= 4]
    generic = {"related", "relation", "relationship", "connected", "connection", "linked", "link", "links"}
    words = [w for w in words if w not in generic]
    return any(w in VERB_FORMS or w.endswith("ed") for w in words) or any(
        share_a_stem(w, label) for w in words for label in labels
    )
