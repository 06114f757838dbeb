"""What the graph says about one named thing ("Tell me about X", "describe X", "what do you know about X",
"who is X"): its facts grouped by predicate, the nodes that belong to it alone read one step further (a
paper's contribution, an authors list), and what names it ("director of ..."), each list written out up to
a cap. Read from the graph, not from the hubs retrieval keeps; offline mode, like relation chains."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable

from kgqa.answering.render import opens_a_noun, spoken_name
from kgqa.answering.words import agreeing, join_items, plural, verbal_label, written
from kgqa.graph.reader import entities_by_ids, in_edges, out_edges
from kgqa.graph.store import GraphStore
from kgqa.types import Answer, Entity, Source, Triple

#: "Tell me about", "describe", "who is": a request for everything the graph says about what follows.
_REQUEST = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:"
    r"tell me (?:more |everything |all )?about|describe|what do you know about|what can you tell me about"
    r"|what does the graph (?:say|know) about|give me (?:an? )?(?:overview|summary|description) of"
    r"|(?:an? )?(?:overview|summary|description) of|summari[sz]e|info(?:rmation)? (?:on|about)|facts about"
    r"|who (?:is|was)|what (?:is|was)"
    r")\s+(?:the\s+)?",
    re.IGNORECASE,
)
_AROUND = " \t'\"‘’“”?.!"
#: Values a sentence writes out per predicate, and entities described for one ambiguous name.
LIST_MAX = 12
NAMESAKES_MAX = 3

IsHub = Callable[[str], bool]


#: A name typed alone ("quiet tide") is read as a request for its overview up to this many words.
NAME_ALONE_WORDS = 8


def may_ask_overview(question: str) -> bool:
    """Whether the question starts as a request for an overview, or is short enough to be a name typed
    alone (cheap: before its topic is linked)."""
    return _REQUEST.match(question) is not None or len(question.split()) <= NAME_ALONE_WORDS


def asks_overview(question: str, start: int, end: int) -> bool:
    """Whether the question asks what the graph says about the thing named at `start:end`, and nothing
    else ("describe X", not "describe the genre of X"; the name alone too)."""
    m = _REQUEST.match(question)
    opening = m.end() if m else 0
    before, after = question[opening:start], question[end:]
    return start >= opening and not before.strip(_AROUND) and not after.strip(_AROUND)


def overview(
    store: GraphStore, question: str, ids: tuple[str, ...], is_hub: IsHub, limit: int, mode: str = "offline"
) -> Answer | None:
    """The answer that describes the entities `ids` (namesakes: the first few), or None where the graph
    states nothing about them."""
    ids = ids[:NAMESAKES_MAX]
    outs, ins = out_edges(store, ids), in_edges(store, ids)
    if not outs and not ins:
        return None
    # a node only this entity points to belongs to it: its facts are the entity's too
    inner = {t.object.id for t in outs if not t.object.is_literal and not is_hub(t.object.id)}
    pointed: dict[str, int] = defaultdict(int)
    for t in in_edges(store, inner) if inner else []:
        pointed[t.object.id] += 1
    own = {i for i in inner if pointed[i] == 1}
    deeper: dict[str, list[Triple]] = defaultdict(list)
    for t in out_edges(store, own) if own else []:
        deeper[t.subject.id].append(t)
    described = entities_by_ids(store, ids)  # with their types
    sources: dict[str, Source] = {}
    evidence: list[str] = []
    sentences: list[str] = []
    groups: dict[str, list[str]] = {}

    def cite(entity: Entity) -> str:
        if not is_hub(entity.id):
            return ""
        if entity.id not in sources:
            sources[entity.id] = Source(len(sources) + 1, entity.id, entity.text)
        return f" [{sources[entity.id].n}]"

    def stated(t: Triple) -> None:
        if len(evidence) < limit and t.canonical not in evidence:
            evidence.append(t.canonical)

    for eid in ids:
        mine_out = [t for t in outs if t.subject.id == eid]
        mine_in = [t for t in ins if t.object.id == eid]
        if not mine_out and not mine_in:
            continue
        entity = described.get(eid) or (mine_out[0].subject if mine_out else mine_in[0].object)
        facts = []
        for predicate, triples in _by_predicate(mine_out).items():
            values = []
            for t in triples:
                stated(t)
                inside = deeper.get(t.object.id, [])
                for d in inside:
                    stated(d)
                detail = "; ".join(
                    f"{p} {join_items([d.object.text for d in ts])}" for p, ts in _by_predicate(inside).items()
                )
                values.append(f"{t.object.text} ({detail})" if detail else t.object.text)
            groups[predicate] = [t.object.text for t in triples]
            said = _said(predicate)
            noun = plural(said) if len(values) > 1 and not verbal_label(said) else said
            facts.append(f"{noun} {written(values, LIST_MAX)}")
        kind = f" ({', '.join(entity.types)})" if entity.types else ""
        head = f"'{entity.text}'{kind}{cite(entity)}"
        sentence = f"{head}: {'; '.join(facts)}." if facts else f"{head}."
        for predicate, triples in _by_predicate(mine_in).items():  # "It is the director of A [1] and B [2]."
            for t in triples:
                stated(t)
            subjects = written([f"{t.subject.text}{cite(t.subject)}" for t in triples], LIST_MAX)
            groups[f"{predicate} (of)"] = [t.subject.text for t in triples]
            said = _said(predicate)
            sentence += (
                f" {subjects[:1].upper()}{subjects[1:]} {agreeing(said, len(triples))} it."
                if verbal_label(said)
                else (f" It is the {said} of {subjects}.")
            )
        sentences.append(sentence)
    first = next(iter(ids))
    return Answer(
        question=question,
        answer=" ".join(sentences),
        sources=list(sources.values()),
        triples=evidence,
        hubs=[],
        mode=mode,
        strategy="overview",
        topic_entity=first,
        notes=[f"an overview of {len(sentences)} entit{'y' if len(sentences) == 1 else 'ies'} read from the graph"],
        result={
            "operation": "overview",
            "value": None,
            "items": [v for vs in groups.values() for v in vs],
            "groups": groups,
        },
    )


def _said(predicate: str) -> str:
    """A machine-style predicate name as people say it ("directed_by": "director"); other labels as they are."""
    return spoken_name(predicate) if "_" in predicate or opens_a_noun(predicate) else predicate


def _by_predicate(triples: list[Triple]) -> dict[str, list[Triple]]:
    """The triples by predicate, both in label order: the answer does not depend on the read's order."""
    grouped: dict[str, list[Triple]] = {}
    for t in sorted(
        triples, key=lambda t: (t.predicate.casefold(), t.object.text.casefold(), t.subject.text.casefold())
    ):
        grouped.setdefault(t.predicate, []).append(t)
    return grouped
