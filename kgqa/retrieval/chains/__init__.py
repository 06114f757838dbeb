"""Relation chains through shared entities: questions that go from a topic entity through a bridge
entity (a director, an author, a venue) into every hub that shares it, as far as the question goes.

`ChainAnswerer.answer` reads the chain from the question (`reading`), links the topic when none is
given (`linking`), follows the chain set-based over the graph (`follow`) and answers with the chain's
end entities, citing the triples that reach them; it returns None when the question reads as no chain,
and HubLink's own retrieval answers it."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from kgqa.answering.catalog import exact_answers_available
from kgqa.answering.words import number_words as n_words
from kgqa.config import RetrievalParams
from kgqa.embeddings.base import Embedder
from kgqa.errors import KgqaError
from kgqa.graph.reader import in_edges, resolve_entity
from kgqa.graph.store import GraphStore
from kgqa.retrieval.base import Answer
from kgqa.retrieval.chains.follow import DEFAULT_FANOUT, ChainResult, follow_chain
from kgqa.retrieval.chains.guards import counts, declines
from kgqa.retrieval.chains.linking import TopicMention, find_mention, link_topic
from kgqa.retrieval.chains.reading import ChainPlan, ChainReader, label_words
from kgqa.retrieval.chains.schema import GraphSchema, type_set
from kgqa.types import Entity, RankedHub, Source, Triple

IsHub = Callable[[str], bool]

#: Steps a chain may take (the demo's "years of the co-authors' papers" takes four).
MAX_HOPS = 4


class ChainAnswerer:
    """Answers relation-chain questions over one graph (schema and cue vectors read once, until
    `forget`)."""

    def __init__(self, store: GraphStore, embedder: Embedder) -> None:
        self.store, self.embedder = store, embedder
        self._reader: ChainReader | None = None

    def forget(self) -> None:
        """Drop the schema (the graph changed)."""
        self._reader = None

    @property
    def reader(self) -> ChainReader:
        """The chain reader over the graph's schema (read on first use)."""
        if self._reader is None:
            self._reader = ChainReader(GraphSchema.read(self.store), self.embedder)
        return self._reader

    def answer(self, question: str, params: RetrievalParams, is_hub: IsHub, mode: str = "offline") -> Answer | None:
        """The chain's answer, or None when the question reads as no chain the graph can follow (or
        as a question about one hub only, which HubLink's own retrieval answers)."""
        if int(params.extra.get("chains", 1)) == 0 or mode != "offline":
            return None  # with an LLM, HubLink's retrieval and the LLM's answer (chains: offline mode)
        t0 = time.perf_counter()
        mention = self._topic(question, params)
        if mention is None:
            return None
        span = (mention.start, mention.end) if mention.end else None
        if declines(question, span):
            return None
        plan = self.reader.plan(question, span, set(mention.types), MAX_HOPS)
        # one-hop counts are left to the exact answers over the whole graph (kgqa/answering/exact.py)
        # where the graph has them; elsewhere the chain counts them itself
        how_many = counts(question) and exact_answers_available(self.store)
        if plan is None or not self._worth_it(plan, mention, is_hub, how_many):
            return None
        t1 = time.perf_counter()
        start = [Entity(i, mention.label, tuple(sorted(mention.types))) for i in mention.ids]
        fanout = int(params.extra.get("chain_fanout", DEFAULT_FANOUT))
        named = _named_outside(question, (mention.start, mention.end))
        result = follow_chain(self.store, start, plan.steps, fanout, revisit=plan.plain_path(question), named=named)
        if not result.ends or _containers(result):
            return None
        if any(named(e) for e in result.ends):
            return None  # "romance movies in french": a value the question names is a constraint, not an answer
        t2 = time.perf_counter()
        answer = _compose(question, plan, result, params, is_hub, mode, self._topic_hubs(result.start, is_hub))
        answer.timings = {"question": t1 - t0, "retrieve": t2 - t1, "generate": time.perf_counter() - t2}
        return answer

    def _topic(self, question: str, params: RetrievalParams) -> TopicMention | None:
        """The given topic where the question names it (None where it does not), else the linked one."""
        if params.topic_entity:
            try:
                e = resolve_entity(self.store, params.topic_entity)
            except KgqaError:
                return None
            where = find_mention(question, e.label)
            if where is None:  # a given entry point the question does not name: HubLink's traversal
                return None
            return TopicMention((e.id,), e.label, type_set(e.types, e.is_literal), where[0], where[1])
        return link_topic(self.store, question)

    def _topic_hubs(self, start: list[Entity], is_hub: IsHub) -> list[Entity]:
        """The topic itself when it is a hub, else the hubs that lead to it (whose paths hold the
        topic's own triples): what an answer whose path meets no hub cites."""
        own = [e for e in start if is_hub(e.id)]
        if own:
            return own
        return list(
            {
                t.subject.id: t.subject for t in in_edges(self.store, [e.id for e in start]) if is_hub(t.subject.id)
            }.values()
        )

    @staticmethod
    def _worth_it(plan: ChainPlan, mention: TopicMention, is_hub: IsHub, how_many: bool) -> bool:
        """A chain leaves the topic's hub, or starts outside any hub, or explains all but one word of
        the question; otherwise (and for one-hop counts) the hub retrieval and its answer composer read it."""
        if len(plan.steps) >= 2:
            return True
        if how_many:
            return False
        if not any(is_hub(i) for i in mention.ids):
            return True
        return len(plan.unexplained) <= 1  # a verb ("describe", "attached"); more is a constraint


#: Shortest label an entity on the way is recognised by in the question (a name, not a stray word).
NAMED_MIN_LENGTH = 4


def _named_outside(question: str, topic: tuple[int, int]) -> Callable[[Entity], bool]:
    """Whether an entity's label stands in the question as whole words, outside the topic's mention."""

    lowered = question.lower()

    def named(e: Entity) -> bool:  # called for every entity of every hop but the last: a substring test first
        if len(e.label) < NAMED_MIN_LENGTH or e.label.lower() not in lowered:
            return False
        where = find_mention(question, e.label)
        return where is not None and (where[1] <= topic[0] or where[0] >= topic[1])

    return named


def _compose(
    question: str,
    plan: ChainPlan,
    result: ChainResult,
    params: RetrievalParams,
    is_hub: IsHub,
    mode: str,
    topic_hubs: list[Entity],
) -> Answer:
    """The answer: the end entities in rank order, each citing the hub its evidence passes through."""
    sources: dict[str, Source] = {}
    triples: list[str] = []
    seen: set[str] = set()
    evidences: list[list[Triple]] = []
    parts: list[str] = []
    limit = params.max_output_triples
    for end in result.ends:
        evidence = result.evidence(end.id)
        hub = _hub_of(evidence, is_hub) or (topic_hubs[0] if topic_hubs else None)
        cite = ""
        if hub is not None:
            if hub.id not in sources:
                sources[hub.id] = Source(len(sources) + 1, hub.id, hub.label or hub.id)
            cite = f" [{sources[hub.id].n}]"
        parts.append(f"{end.text}{cite}")
        evidences.append(evidence)
    # each end's last triple first (every answer is named while the cap allows), then the paths to it
    for ordered in ([e[-1:] for e in evidences], [e[:-1] for e in evidences]):
        for evidence in ordered:
            for t in evidence:
                if len(triples) < limit and t.canonical not in seen:
                    seen.add(t.canonical)
                    triples.append(t.canonical)
    items = [e.text for e in result.ends]
    how_many = counts(question)
    chain = " -> ".join(f"{p}" if d > 0 else f"(inverse) {p}" for p, d in plan.steps)
    listing = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    start = result.start[0].text
    text = _sentence(question, listing, len(items), how_many) or _chain_sentence(plan.steps, start, listing, len(items))
    notes = [f"relation chain: {chain} ({len(plan.steps)} hop{'s' if len(plan.steps) != 1 else ''})"]
    if result.truncated:
        notes.append("a hop of the chain reached its fan-out cap; the answer may be incomplete")
    return Answer(
        question=question,
        answer=text,
        sources=list(sources.values()),
        triples=triples,
        hubs=[RankedHub(s.hub_id, s.label, 1.0, True, 0) for s in sources.values()],
        mode=mode,
        strategy="chain",
        topic_entity=result.start[0].id,
        components=[m.word for m in plan.mentions],
        notes=notes,
        trace=[
            {"step": i + 1, "predicate": p, "direction": "forward" if d > 0 else "backward"}
            for i, (p, d) in enumerate(plan.steps)
        ],
        result={
            "operation": "count" if how_many else "value" if len(items) == 1 else "list",
            "value": len(items) if how_many else items[0] if len(items) == 1 else None,
            "items": items,
            "groups": {},
        },
    )


def _containers(result: ChainResult) -> bool:
    """Whether the chain ends in nodes named after the relation that reached them ("authors" ->
    "authors list"): containers whose members HubLink's hub paths state."""
    words = label_words(result.steps[-1][0])
    return bool(words) and all(words in e.label.lower() for e in result.ends)


def _sentence(question: str, listing: str, n: int, how_many: bool) -> str | None:
    """The answer as a sentence when the question is "Who/What/Which are|is <phrase>?" ("The authors
    of the paper 'X' are A [1] and B [1].") or asks how many; None for other wordings."""
    if how_many:
        return f"{n_words(n).capitalize()} ({n}): {listing}."
    m = re.match(r"^\s*(?:who|what|which)\s+(?:are|is|were|was)\s+(.+?)\s*\??\s*$", question, re.IGNORECASE)
    if not m or not m.group(1).lower().startswith("the "):
        return None
    phrase = m.group(1)
    return f"{phrase[0].upper()}{phrase[1:]} {'are' if n > 1 else 'is'} {listing}."


def _chain_sentence(steps: tuple[tuple[str, int], ...], start: str, listing: str, n: int) -> str:
    """The answer in words from the predicate labels: "The venue of 'X' is V [1].", "'A' is the author
    of P [1] and Q [2].", or for longer chains the answers with the way they were reached."""
    steps = tuple((_readable(p), d) for p, d in steps)
    if len(steps) == 1:
        predicate, direction = steps[0]
        backwards = re.fullmatch(r"(.+) \((.+)\)", predicate)  # a rel read backwards: "person (acted in)"
        if backwards and _verbal(backwards.group(2)):  # "Mei [1] acted in 'X'"
            verb = backwards.group(2)
            return f"{listing} {verb} '{start}'." if direction > 0 else f"'{start}' {verb} {listing}."
        if _verbal(predicate):  # the triple read as it stands: "A [1] wrote 'X'", "'X' published at V [1]"
            if direction < 0:
                return f"{listing} {_agreeing(predicate, n)} '{start}'."
            return f"'{start}' {predicate} {listing}."
        if direction > 0:
            return f"The {predicate} of '{start}' {'are' if n > 1 else 'is'} {listing}."
        return f"'{start}' is the {predicate} of {listing}."
    way = " → ".join(p if d > 0 else f"{p} of" for p, d in steps)
    return f"{listing[0].upper()}{listing[1:]} (from '{start}': {way})."


def _agreeing(verb_phrase: str, subjects: int) -> str:
    """The verb phrase for several subjects ("comes from" -> "come from", "has" -> "have")."""
    first, _, rest = verb_phrase.partition(" ")
    if subjects < 2 or not first.endswith("s") or first.endswith("ss"):
        return verb_phrase
    plural = {"has": "have", "is": "are", "was": "were"}.get(first) or (
        first[:-2] if first.endswith(("ches", "shes", "xes", "sses")) else first[:-1]
    )
    return f"{plural} {rest}".strip()


def _readable(predicate: str) -> str:
    """A machine-style label as words ("directed_by" -> "directed by", "releaseYear" -> "release
    year"); a label written as words stays as it is."""
    if " " not in predicate and ("_" in predicate or re.search(r"[a-z][A-Z]", predicate)):
        return label_words(predicate)
    return predicate


#: Words that make a predicate label a verb phrase ("wrote", "published at", "has tags").
_VERB_WORDS = frozenset({"has", "have", "is", "was", "are", "were", "wrote", "made", "won", "knows", "likes"})
_PARTICLES = frozenset({"at", "by", "in", "of", "on", "to", "from", "with", "for", "into"})


def _verbal(predicate: str) -> bool:
    """Whether a predicate label reads as a verb phrase rather than a noun ("author", "release year")."""
    words = label_words(predicate).split()
    if not words:
        return False
    return words[0] in _VERB_WORDS or words[0].endswith("ed") or (len(words) > 1 and words[-1] in _PARTICLES)


def _hub_of(evidence: list[Triple], is_hub: IsHub) -> Entity | None:
    """The hub nearest the answer on an evidence path (the last hub root among its entities)."""
    for t in reversed(evidence):
        for e in (t.object, t.subject):
            if is_hub(e.id):
                return e
    return None
