"""The attribute whose values are of the type a question's noun names: "which *department* has the most
employees" groups the employees by "works in", whose values are Departments, though MiniLM puts
"department" nearer "reports to". Read from the types of a few values of each attribute (one read of
the graph's entities per catalog state), so it holds for any graph that types its entities."""

from __future__ import annotations

import re

from kgqa.answering.catalog import Catalog
from kgqa.answering.render import singular_phrase
from kgqa.graph.layout import layout_of
from kgqa.graph.store import GraphStore
from kgqa.question.meaning import same_kind
from kgqa.question.verbs import the_one_named

#: Values of each attribute whose types are read.
SAMPLED = 3


def attribute_of_type(phrase: str, cat: Catalog, store: GraphStore, question: str = "") -> str | None:
    """The one attribute whose values are of the type `phrase` names ("department", "departments"; "films"
    of the type Movie),
    the hub's own attributes before those reached through another entity, and of several, the one a
    word of `question` names by its stem ("how many movies did X *direct*": directed, not acted in);
    None where no type or several attributes' values are of it."""
    wanted = _type_words(singular_phrase(phrase.strip().lower()))
    if not wanted:
        return None
    typed: dict[str, frozenset[str]] = cat._memoised("value_types", lambda: _value_types(cat, store))
    named = [a for a, types in typed.items() if any(_type_words(t) == wanted or same_kind(wanted, t) for t in types)]
    own = [a for a in named if any(not p.via for p in cat.paths.get(a, ()))]
    best = own or named
    if len(best) > 1 and question:
        rest = re.sub(rf"\b{re.escape(phrase.strip())}\b", " ", question, flags=re.I)
        return the_one_named(rest, best)
    return best[0] if len(best) == 1 else None


def _value_types(cat: Catalog, store: GraphStore) -> dict[str, frozenset[str]]:
    """Attribute -> the types of its first few entity values."""
    sampled: dict[str, list[str]] = {}
    for f in cat.facts:
        ids = sampled.setdefault(f.attribute, [])
        if len(ids) < SAMPLED and f.value_id not in ids and not f.triples[-1].object.is_literal:
            ids.append(f.value_id)
    entities = layout_of(store).entities_by_ids(sorted({i for ids in sampled.values() for i in ids}))
    return {
        a: frozenset(t for i in ids if i in entities for t in entities[i].types) for a, ids in sampled.items() if ids
    }


def _type_words(name: str) -> str:
    """A type's name as lower-case words ("ResearchField" -> "research field")."""
    return " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).replace("_", " ").lower().split())
