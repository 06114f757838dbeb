"""Exact answers on a graph without types (an index built without hub types: a headerless TSV, a
knowledge base of bare triples). The subjects are split into kinds by the predicates they state (a set
of predicates joins the kind that states more than half of it: a film without a writer is a film, a
city's `located_in` and `population` no country), and each kind is read as one catalog
(kgqa/answering/catalog.py) whose whole-graph aggregates run over its own facts. A question gets the one
kind stating an attribute it names, else the one kind stating a value it writes, else the kind that holds
most of the subjects; its hubs are called by the question's own word for them ("which *movies* came out
after 2015"), since the graph names no type."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace

from kgqa.answering.catalog import MAX_FACTS, Catalog, CatalogCache, catalog_of_rows
from kgqa.answering.words import singular
from kgqa.bulk import gc_paused
from kgqa.graph.layout import GraphLayout, HubFactRow, layout_of
from kgqa.graph.store import GraphStore
from kgqa.question.components import STOP_WORDS
from kgqa.question.meaning import kind_of_hubs
from kgqa.question.verbs import share_a_stem

#: A question is answered from the largest kind, where it names none, only when that kind holds this
#: share of the subjects (a graph of films alone; not books beside as many authors and publishers).
MAIN_KIND_SHARE = 2 / 3
#: What the hubs are called where the question gives no word for them.
NO_WORD = "entity"
_WORD = re.compile(r"[a-z]+")
_VALUE_WORD = re.compile(r"[^\W_]+(?:[-'.][^\W_]+)*")
#: Words for a kind of thing that are verbs too ("did X work on", "what does X show", "book").
_ALSO_VERBS = frozenset({"work", "study", "show", "program", "programme", "picture", "track", "book", "firm"})
_DETERMINERS = frozenset({"a", "an", "the", "which", "what", "each", "every", "one", "that", "this"})


def untyped_catalogs(store: GraphStore, cache: CatalogCache, hub_types: list[str]) -> list[Catalog]:
    """One catalog per kind of untyped subject, largest first, read once per graph state; [] where the
    graph holds an entity of one of the index's `hub_types` (its catalog answers, or is past the
    ceiling), has no untyped subjects or states more facts of them than a catalog holds."""
    if cache.untyped is None:
        layout = layout_of(store)
        rows = None
        if layout.untyped_facts(1) != [] and not any(_holds(layout, t) for t in hub_types):
            with gc_paused():
                rows = layout.untyped_facts(MAX_FACTS)
        cache.untyped = [] if not rows or len(rows) >= MAX_FACTS else _kinds(rows)
    return cache.untyped


def _holds(layout: GraphLayout, hub_type: str) -> bool:
    """Whether the graph holds a fact of an entity of `hub_type` (None: past the one row asked for)."""
    rows = layout.hub_facts(hub_type, 1)
    return rows is None or bool(rows)


def _kinds(rows: list[HubFactRow]) -> list[Catalog]:
    """The rows split by kind of subject, one catalog each; two-hop facts through a subject of the same
    kind are left out (that subject is a hub of its own, as a hub type's are)."""
    predicates = {hub: frozenset(preds) for hub, preds in _stated(rows).items()}
    kind_of = _kind_of_signatures(Counter(predicates.values()))
    grouped: dict[int, list[HubFactRow]] = defaultdict(list)
    for r in rows:
        kind = kind_of.get(predicates.get(r[0], frozenset()))
        if kind is not None and not (r[2] and kind_of.get(predicates.get(r[3], frozenset())) == kind):
            grouped[kind].append(r)
    cats = [catalog_of_rows(kind_rows, NO_WORD, in_cypher=False) for kind_rows in grouped.values()]
    return sorted(cats, key=lambda c: (-len(c.hubs), sorted(c.paths)))


def _stated(rows: list[HubFactRow]) -> dict[str, set[str]]:
    """Subject id -> the predicates it states itself (one hop)."""
    out: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        if not r[2]:
            out[r[0]].add(r[5])
    return out


def _kind_of_signatures(signatures: Counter[frozenset[str]]) -> dict[frozenset[str], int]:
    """Each set of predicates subjects state -> its kind: the widest sets first, each joining the first
    kind that states more than half of its predicates (a film without a writer is a film; a city's
    `located_in` and `population` share only `population` with a country's four), else a kind of its own."""
    kinds: list[set[str]] = []
    out: dict[frozenset[str], int] = {}
    for sig in sorted(signatures, key=lambda s: (-len(s), -signatures[s], sorted(s))):
        k = next((i for i, preds in enumerate(kinds) if 2 * len(sig & preds) > len(sig)), None)
        if k is None:
            kinds.append(set(sig))
            k = len(kinds) - 1
        else:
            kinds[k] |= sig
        out[sig] = k
    return out


def kind_asked(question: str, cats: list[Catalog]) -> Catalog | None:
    """The catalog of the kind of subject `question` asks about: the one kind that states an attribute
    whose name shares a stem with the question's words ("born in"), else the one kind that states a value
    the question writes ("how many books are *mysteries*"), else the largest where it holds most subjects;
    each rule choosing among the kinds the one before left ("the average *population* of the countries in
    *europe*": the kinds stating a population, then the one stating Europe); None where none of these
    tells one kind."""
    candidates = cats
    for names in (_names_an_attribute, _names_a_value):
        named = [c for c in candidates if names(question, c)]
        if len(named) == 1:
            return named[0]
        candidates = named or candidates
    if candidates and len(candidates[0].hubs) >= MAIN_KIND_SHARE * sum(len(c.hubs) for c in candidates):
        return candidates[0]
    return None


def _names_an_attribute(question: str, cat: Catalog) -> bool:
    return any(_states(cat, a) and share_a_stem(question, a) for a in cat.paths)


def _names_a_value(question: str, cat: Catalog) -> bool:
    """Whether the question writes a value the kind's hubs state (up to four words; the last one also in
    the singular: "mysteries", "dramas")."""
    words = _VALUE_WORD.findall(question.casefold())
    stated = cat.stated_values()
    for n in range(1, 5):
        for i in range(len(words) - n + 1):
            gram = words[i : i + n]
            if len(gram) == 1 and (gram[0] in STOP_WORDS or len(gram[0]) < 3):
                continue
            last = gram[-1]
            ones = {last, singular(last)} | ({last[:-3] + "y"} if last.endswith("ies") else set())
            if any(" ".join([*gram[:-1], w]) in stated for w in ones):
                return True
    return False


def called_as_asked(question: str, cat: Catalog) -> Catalog:
    """`cat` (sharing its facts, label indexes and memos) with its hubs called by the question's word."""
    return replace(cat, hub_type=hubs_word(question, cat))


def _states(cat: Catalog, attribute: str) -> bool:
    """Whether the hubs of `cat` state `attribute` themselves (one hop, not through another subject)."""
    return any(not p.via for p in cat.paths[attribute])


def hubs_word(question: str, cat: Catalog) -> str:
    """The question's word for the hubs: a word everyday English uses for a kind of thing ("films",
    "books"), else the first plural noun that is no attribute's name nor a value ("which *novels* ...");
    else `NO_WORD`."""
    words = _WORD.findall(question.lower())
    for i, w in enumerate(words):  # "films", "the oldest film": not "did X work on", "what does X show"
        kind = kind_of_hubs(w)
        if kind is not None and (kind != w or w not in _ALSO_VERBS or i and words[i - 1] in _DETERMINERS):
            return kind
    for w in words:
        if len(w) < 4 or w in STOP_WORDS or not w.endswith("s") or w.endswith("ss"):
            continue
        if w in cat.values or singular(w) in cat.values or any(share_a_stem(w, a) for a in cat.paths):
            continue
        return singular(w)
    return NO_WORD
