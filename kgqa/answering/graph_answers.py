"""The hook that lets the graph answer exactly where it can (kgqa/answering/exact.py): after retrieval,
in offline mode, the answer over the retrieved facts is kept when the graph agrees with it, and
replaced (text, result, sources, evidence) when the graph says otherwise."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kgqa import deadline
from kgqa.answering.catalog import Catalog, CatalogCache
from kgqa.answering.connections import connection_by_labels
from kgqa.answering.exact import Exact, refine
from kgqa.answering.question import analyse
from kgqa.answering.untyped import called_as_asked, kind_asked, untyped_catalogs
from kgqa.embeddings.base import Embedder
from kgqa.graph.store import GraphStore
from kgqa.question.linking import Linker
from kgqa.question.meaning import asks_link, hub_type_named
from kgqa.types import Answer, Source


def hub_types(meta: dict[str, Any] | None) -> list[str]:
    """The hub types the index was built with, as stored."""
    return list(((meta or {}).get("params") or {}).get("hub_types") or [])


def prepared(
    store: GraphStore, meta: Callable[[], dict[str, Any] | None], cache: CatalogCache, question: str = ""
) -> Catalog | None:
    """The catalog exact answers read, with its label indexes: read on first use, once per graph state.
    With several hub types, the catalog of the type `question` asks for ("how many films ...": Film);
    None when it names none, when the index has no hub type or the graph gives no catalog."""
    types = hub_types_of(meta, cache)
    if len(types) == 1:
        hub_type: str | None = types[0]
    elif not question or not types:
        hub_type = None
    else:
        plan = analyse(question)
        hub_type = hub_type_named(question, plan.asked, types)
        if hub_type is None and plan.yes_no and (plan.year_bound or plan.year_range or _YEAR.search(question)):
            hub_type = _type_of_the_dated_hub(question, store, types, cache)  # "was X released in 1995?"
    return None if hub_type is None else _with_linker(cache.get(store, hub_type))


_YEAR = re.compile(r"\b(1[5-9]|20)\d\d\b")


def _type_of_the_dated_hub(question: str, store: GraphStore, types: list[str], cache: CatalogCache) -> str | None:
    """The one hub type whose hubs have a date and of which the question names a hub by its label (the
    year it asks about is then that hub's, whatever other hub types the index has)."""
    found = []
    for hub_type in types:
        cat = _with_linker(cache.get(store, hub_type))
        linker = cat.linker if cat is not None else None
        if cat is not None and isinstance(linker, Linker) and cat.date_attribute() and linker.link(question).hubs:
            found.append(hub_type)
    return found[0] if len(found) == 1 else None


def prepared_untyped(
    store: GraphStore, meta: Callable[[], dict[str, Any] | None], cache: CatalogCache, question: str
) -> Catalog | None:
    """An index without hub types (or whose hub types the graph holds no entity of): the catalog of the
    kind of subject `question` asks about, its hubs called by the question's word for them
    (kgqa/answering/untyped.py); None where the graph holds hubs of a hub type."""
    chosen = kind_asked(question, untyped_catalogs(store, cache, hub_types_of(meta, cache)))
    return None if chosen is None else called_as_asked(question, _with_linker(chosen) or chosen)


def question_catalog(
    store: GraphStore, meta: Callable[[], dict[str, Any] | None], cache: CatalogCache, question: str
) -> Catalog | None:
    """The catalog that answers `question` exactly: its hub type's (`prepared`), else on a graph without
    hub types the kind's it asks about (`prepared_untyped`); None where neither has one."""
    return prepared(store, meta, cache, question) or prepared_untyped(store, meta, cache, question)


def prepared_all(store: GraphStore, meta: Callable[[], dict[str, Any] | None], cache: CatalogCache) -> list[Catalog]:
    """Every hub type's catalog, or every kind's of a graph without types, read now (what `prepared`
    and `prepared_untyped` read on first use)."""
    types = hub_types_of(meta, cache)
    cats = [_with_linker(cache.get(store, t)) for t in types] + [
        _with_linker(c) for c in untyped_catalogs(store, cache, types)
    ]
    return [c for c in cats if c is not None]


def hub_types_of(meta: Callable[[], dict[str, Any] | None], cache: CatalogCache) -> list[str]:
    """The index's hub types, read once per graph state."""
    if cache.types is None:
        cache.types = hub_types(meta())
    return cache.types


def _with_linker(cat: Catalog | None) -> Catalog | None:
    if cat is not None and cat.linker is None:
        cat.linker = Linker(cat)
    return cat


def with_exact(
    answer: Answer,
    store: GraphStore,
    meta: Callable[[], dict[str, Any] | None],
    embedder: Embedder,
    cache: CatalogCache,
    max_triples: int | None = None,
    named_entity: Callable[[str], tuple[str, str] | None] | None = None,
) -> Answer:
    """`answer`, corrected by what the graph states exactly (unchanged when the graph cannot say).
    `meta()` reads the index metadata (once per graph state); `max_triples` caps the evidence (None:
    it grows with the result); `named_entity(question)`: the label of the entity the question is about
    (its longest label) and the words it was read from, or None (then an exact answer that did not link it is no answer to it: "which
    languages has X made films in", "which films did X direct after 1990" where X is no value of the
    films' catalog, people being subjects)."""
    cat = question_catalog(store, meta, cache, answer.question)
    if cat is not None:
        deadline.check("the exact answer")
        exact = refine(answer.question, cat, cat.linker, store, embedder, answer.triples)  # type: ignore[arg-type]
    elif asks_link(answer.question):  # no catalog (past its ceiling, several hub types): a link
        deadline.check("the exact answer")  # question is linked by the labels it writes
        exact = connection_by_labels(answer.question, store, cache.types or ())
    else:
        return answer
    if exact is None:
        return answer
    if named_entity is not None and not _linked(exact, *(named_entity(answer.question) or (None, ""))):
        return answer
    if _agrees(answer.result, exact.result) and all(label in answer.answer for label in exact.labels):
        answer.result = {**(answer.result or {}), **{k: v for k, v in exact.result.items() if k not in _SHAPE}}
        return answer
    _put_in_place(answer, exact)
    answer.triples = list(dict.fromkeys(answer.triples + exact.triples))[:max_triples]  # retrieval order kept
    return answer


def _put_in_place(answer: Answer, exact: Exact) -> None:
    """`answer`'s text, result and sources replaced by the exact answer's."""
    answer.answer, answer.result = exact.text, exact.result
    answer.sources = [Source(i, h, label) for i, (h, label) in enumerate(exact.sources, start=1)]


def with_edge_values(
    answer: Answer, store: GraphStore, meta: Callable[[], dict[str, Any] | None], cache: CatalogCache
) -> Answer:
    """`answer` (a relation chain's), replaced where the question asks what an edge itself says, in a
    graph whose edges carry properties (kgqa/answering/edge_values.py): "who played Neo in The Matrix"
    asks for the actor whose role is Neo, not for every actor."""
    cat = question_catalog(store, meta, cache, answer.question)
    if cat is None or cat.linker is None:
        return answer
    from kgqa.answering.edge_values import edge_value
    from kgqa.answering.exact import _labelled

    links = cat.linker.link(answer.question)  # type: ignore[attr-defined]
    exact = None if links.ambiguous else edge_value(answer.question, analyse(answer.question), links, cat, store)
    if exact is None:
        return answer
    _put_in_place(answer, _labelled(exact, links, cat))
    answer.triples = exact.triples
    answer.strategy = "edge"
    answer.notes = [n for n in answer.notes if not n.startswith("relation chain")]
    answer.notes.append("edge properties: read from the edges the question names")
    return answer


def _linked(exact: Exact, label: str | None, words: str = "") -> bool:
    """Whether the exact answer read the entity labelled `label` (None: the question names none), or
    linked longer words of the question that hold the `words` it was read from ("software *engineers*":
    the title Software Engineer, not the department Engineering), or constrains by nothing and says what
    it found to be missing or ambiguous."""
    if label is None or "missing" in exact.result or "candidates" in exact.result:
        return True
    if words and any(words.casefold() in m.casefold() and len(m) > len(words) for m in exact.mentions):
        return True
    linked = {x.casefold() for x in exact.labels}
    return label.casefold() in linked or any(label.casefold() in x or x in label.casefold() for x in linked if x)


_SHAPE = ("operation", "value", "items", "groups")


def _agrees(old: dict[str, Any] | None, new: dict[str, Any]) -> bool:
    """Whether the composer's result states what the graph states (then its sentence stays)."""
    if not old or old.get("operation") != new.get("operation") or "missing" in new or "candidates" in new:
        return False
    if new.get("value") in ("yes", "no") and old.get("value") != new["value"]:
        return False  # "is X in French?": a verdict, which a sentence stating the language does not give
    if new["operation"] == "count":  # the same number of the same things (not three films for three people)
        fold = {str(x).casefold() for x in old.get("items") or []}
        return old.get("value") == new.get("value") and (
            not fold or not new.get("items") or fold == {str(x).casefold() for x in new["items"]}
        )
    if new["operation"] == "compare" and "sides" in (new.get("query") or {}):
        # two named values' counts ("who has more papers, A or B"): the counts themselves, not a "same"
        return old.get("value") == new.get("value") and old.get("groups") == new.get("groups")
    if new["operation"] in ("list", "value", "negation"):
        fold = {str(x).casefold() for x in old.get("items") or []}
        return bool(fold) and fold == {str(x).casefold() for x in new.get("items") or []}
    if new["operation"] in ("rank", "group"):
        return old.get("items") == new.get("items") and old.get("groups") == new.get("groups")
    if new["operation"] in ("max", "min"):
        top = new.get("value")
        return (
            old.get("value") == top
            and isinstance(top, str)
            and (old.get("groups") or {}).get(top) == new["groups"].get(top)
        )
    return old.get("value") == new.get("value")
