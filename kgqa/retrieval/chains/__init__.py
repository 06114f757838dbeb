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
from dataclasses import replace
from functools import partial
from typing import Any

from kgqa.answering.catalog import exact_answers_available
from kgqa.answering.question import YES_NO_OPENING, asked_number, asks_yes_no, fix_how_many
from kgqa.answering.render import in_the_passive, opens_a_noun, singular_phrase, spoken_name
from kgqa.answering.words import agreeing, join_items, label_words, plural, verbal_label
from kgqa.answering.words import number_words as n_words
from kgqa.config import RetrievalParams
from kgqa.embeddings.base import Embedder
from kgqa.errors import KgqaError
from kgqa.graph.layout import layout_of
from kgqa.graph.reader import in_edges, out_edges, resolve_entity
from kgqa.graph.store import GraphStore
from kgqa.question.demonyms import demonyms
from kgqa.question.meaning import asks_inverse, asks_relationship
from kgqa.retrieval.base import Answer
from kgqa.retrieval.chains.follow import DEFAULT_FANOUT, ChainResult, follow_chain
from kgqa.retrieval.chains.guards import counts, declines
from kgqa.retrieval.chains.label_index import MAX_LABELS, LabelIndex
from kgqa.retrieval.chains.linking import (
    MIN_LABEL_LENGTH,
    TopicMention,
    find_mention,
    labels_in,
    link_plural_topic,
    link_topic,
)
from kgqa.retrieval.chains.ordering import (
    Keyed,
    LatestAt,
    Ordering,
    extremes,
    key_values,
    ordering_of,
    sortable,
    time_keyed,
    time_literal,
    time_top_of,
)
from kgqa.retrieval.chains.reading import LINK_WORDS, ChainPlan, ChainReader
from kgqa.retrieval.chains.schema import LITERAL, GraphSchema, types_of
from kgqa.retrieval.chains.spelling import LabelSpelling
from kgqa.retrieval.chains.values import NamedValue, Narrowing, Unmet, blanked, named_values, value_spans
from kgqa.retrieval.chains.verdict import verdict
from kgqa.retrieval.chains.years import YearWindow, year_of, year_window
from kgqa.types import Entity, RankedHub, Source, Triple

IsHub = Callable[[str], bool]

#: Steps a chain may take (the demo's "years of the co-authors' papers" takes four).
MAX_HOPS = 4


class ChainAnswerer:
    """Answers relation-chain questions over one graph (schema and cue vectors read once, until
    `forget`)."""

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        counts_exactly: Callable[..., bool] | None = None,
        typed_topic: Callable[[str], TopicMention | None] | None = None,
    ) -> None:
        """`counts_exactly(question)`: whether the exact answers count the whole graph for the question
        (kgqa/answering/exact.py; by default wherever the layout reads its facts); `typed_topic(question)`:
        the topic written with a typo, where no label is written as it is labelled (None: not looked for)."""
        self.store, self.embedder = store, embedder
        self._typed_topic = typed_topic
        self._counts_exactly = counts_exactly or (lambda _question, _topic=None: exact_answers_available(store))
        self._reader: ChainReader | None = None
        self._last_topic: tuple[tuple[str, str | None], TopicMention | None] | None = None
        self._labels: LabelIndex | None = None  # the graph's labels in memory (`_label_index`)
        self._linked = 0  # questions whose topic was linked from their words
        self._labels_tried = False
        self._spelling: LabelSpelling | None = None  # the words of the graph's labels (`_label_spelling`)
        self._spelling_tried = False

    def forget(self) -> None:
        """Drop the schema and the labels' words (the graph changed)."""
        self._reader = None
        self._spelling, self._spelling_tried = None, False

    @property
    def reader(self) -> ChainReader:
        """The chain reader over the graph's schema (read on first use)."""
        if self._reader is None:
            self._reader = ChainReader(GraphSchema.read(self.store), self.embedder)
        return self._reader

    def answer(self, question: str, params: RetrievalParams, is_hub: IsHub, mode: str = "offline") -> Answer | None:
        """The chain's answer, or None when the question reads as no chain the graph can follow (or
        as a question about one hub only, which HubLink's own retrieval answers). A name linked with an
        "s" after it that gives no answer as a plural is read again as a possessive typed without its
        apostrophe ("who acted in elif szabos movies")."""
        if int(params.extra.get("chains", 1)) == 0 or mode != "offline":
            return None  # with an LLM, HubLink's retrieval and the LLM's answer (chains: offline mode)
        t0 = time.perf_counter()
        asked, question = question, fix_how_many(question)  # "hw many", "how mny": read as "how many"
        mention = self.topic(question, params)
        if mention is None:
            return None
        plain = self._without_descriptors(question, mention)  # "who starred in *the romance comedy* X"
        answer = self._answer(plain, mention, params, is_hub, mode, t0)
        if answer is not None:
            answer.question = asked
        if answer is None and question[mention.start : mention.end].lower() == mention.label.lower() + "s":
            possessive = question[: mention.end - 1] + "'s" + question[mention.end :]  # "szabos": "szabo's"
            again = replace(mention, end=mention.end - 1)
            answer = self._answer(possessive, again, params, is_hub, mode, t0)
            if answer is not None:
                answer.question = asked
        if answer is None and asks_yes_no(question) and not self._counts_exactly(question):
            answer = self._verdict(question, mention, params, is_hub, mode)  # "is X a drama" (no catalog)
        return answer

    def _verdict(
        self, question: str, mention: TopicMention, params: RetrievalParams, is_hub: IsHub, mode: str
    ) -> Answer | None:
        """Yes or no from the triples between the topic and the value the question names, by the relation
        it names (kgqa/retrieval/chains/verdict.py); None where it names no value or the graph says nothing."""
        narrowing = self._narrowing(question, mention, int(params.extra.get("chain_fanout", DEFAULT_FANOUT)))
        if narrowing is None or not narrowing.values:
            return None
        words = frozenset(w for v in narrowing.values for w in v.words)
        plan = self.reader.plan(question, (mention.start, mention.end), set(mention.types), MAX_HOPS, words)
        relations = frozenset(m.predicate for m in plan.mentions if m.predicate) if plan is not None else frozenset()
        topic = [Entity(i, mention.label, tuple(sorted(mention.types))) for i in mention.ids]
        found = verdict(self.store, topic, [e for v in narrowing.values for e in v.entities], relations or None)
        if found is None:
            return None
        sources, cite = _topic_source([found.cited] if is_hub(found.cited.id) else [])
        return Answer(
            question=question,
            answer=found.text(cite),
            sources=list(sources.values()),
            triples=[t.canonical for t in found.triples][: params.max_output_triples],
            hubs=[RankedHub(s.hub_id, s.label, 1.0, True, 0) for s in sources.values()],
            mode=mode,
            strategy="chain",
            topic_entity=topic[0].id,
            components=[mention.label, *(v.label for v in narrowing.values)],
            notes=[f"yes/no from the triples between '{mention.label}' and the value named"],
            result={
                "operation": "value" if len(found.values) == 1 else "list",
                "value": "yes" if found.yes else "no",
                "items": list(found.values),
                "groups": {},
            },
        )

    def _in_some_label(self, word: str) -> bool:
        """Whether some entity's label has `word` as one of its words ("icse" in "... (ICSE)")."""
        found = layout_of(self.store).entities_by_label(word, LABEL_PROBE)
        return any(word in _WORD.findall(e.text.lower()) for e, _ in found)

    def _without_descriptors(self, question: str, mention: TopicMention) -> str:
        """`question` with the values written right before its topic that the topic itself has blanked out
        ("who starred in the *romance comedy* glass summer 2": the film's own genres describe it, they
        constrain no answer); unchanged for a yes/no question ("is *the thriller* X in french?") and
        where nothing stands there but link words."""
        before = _WORD.findall(question[: mention.start].lower())
        if not before or before[-1] in LINK_WORDS or asks_yes_no(question) or not mention.start:
            return question
        index = self._label_index()
        values = named_values(
            question,
            (mention.start, mention.end),
            partial(labels_in, self.store, index=index),
            self.reader.cues.vocabulary,
        )
        if not values:
            return question
        own = {t.object.id for t in out_edges(self.store, mention.ids)}
        own |= {t.subject.id for t in in_edges(self.store, mention.ids)}
        described = [v for v in values if any(e.id in own for e in v.entities)]
        spans = sorted(value_spans(question, described))
        # the described values and link words alone between the first of them and the topic
        if not spans or spans[-1][1] > mention.start:
            return question
        between = blanked(question[spans[0][0] : mention.start], [(a - spans[0][0], b - spans[0][0]) for a, b in spans])
        if any(w not in ("the", "a", "an", "and") for w in _WORD.findall(between.lower())):
            return question
        return blanked(question, spans)

    def _answer(
        self, question: str, mention: TopicMention, params: RetrievalParams, is_hub: IsHub, mode: str, t0: float
    ) -> Answer | None:
        span = (mention.start, mention.end) if mention.end else None
        unnamed = blanked(question, [span]) if span else question  # (not "Links between ..." in a title)
        if asks_relationship(unnamed) and not asks_yes_no(question):
            return None  # "how is X related to Y": how they are linked, the exact answers' link reading
        # counts, orders and groups are left to the exact answers over the whole graph
        # (kgqa/answering/exact.py) where the graph has them; elsewhere (a layout without them, a graph
        # past their ceiling) the chain takes them itself, over every end it reaches, not over the hubs
        # retrieval keeps
        ordering = ordering_of(question, mention.end)
        if ordering is not None and self._counts_exactly(question):
            ordering = None
        fanout = int(params.extra.get("chain_fanout", DEFAULT_FANOUT))
        # "which films did X direct after 1990" where the exact answers cannot read X's films: the chain
        # keeps the ends of those years itself, read without the years
        window = year_window(question)
        if window is not None and self._counts_exactly(question, (mention.start, mention.end)):
            window = None  # the exact answers read the years with the topic
        if window is not None:
            question = blanked(question, [window.span])
        narrowing = self._narrowing(question, mention, fanout)  # the values named ("Last Shadows")
        values = narrowing.values if narrowing is not None else []
        top = (
            time_top_of(question, (mention.start, mention.end), value_spans(question, values)) if not ordering else None
        )
        asked = ordering.chain_question if ordering else question
        where = find_mention(top.chain_question, mention.label) if top is not None else None
        if top is not None and where is not None:  # the question without its "latest" / "first"
            asked, span = top.chain_question, where
            mention = replace(mention, start=where[0], end=where[1])
        else:
            top = None
        # "who acted in both X and Y": Y narrows the chain from X (a value), so "both" may stand, and the
        # values' own words operate nothing ("Last Shadows")
        both = re.sub(r"\bboth\b", "    ", asked, flags=re.IGNORECASE)
        # "did X direct a drama?": yes where the chain narrowed by the value reaches some, no where none has it
        yes_no = asks_yes_no(both) and bool(values)
        if yes_no and any(is_hub(i) for i in mention.ids) and _of_own_kind(values, mention):
            return None  # "do X and Y have the same director?" (two films): the exact answers compare them
        # "has X directed any films?", "is X an actor?": yes with what the chain reaches, no where it reaches
        # nothing (the question names its relation and nothing else)
        any_yes_no = asks_yes_no(both) and not values and ordering is None and top is None
        opened = YES_NO_OPENING.sub(lambda m: " " * len(m.group(0)), both) if yes_no or any_yes_no else both
        if declines(blanked(opened, value_spans(opened, values)), span):
            return None
        # "the latest film *by* X": the chain joins the films to X where the exact answers do not read it
        loose = top is not None or not self._counts_exactly(question)
        named_values_here = narrowing  # (a yes/no question's value may be an end, which narrows nothing)
        plan, narrowing, bare = self._read_plan(asked, span, mention, narrowing, is_hub, loose, yes_no)
        if both != asked and narrowing is None:
            return None  # "both" of nothing the chain narrows by
        how_many = counts(asked) and ordering is None and self._counts_exactly(asked, (mention.start, mention.end))
        # a count narrowed by a value the question names, or of what a value is the value of ("how many
        # comedies are there"), is the chain's: it counts every entity it reaches
        # a yes/no question's value words are its own ("did X direct *Y*"), whatever the chain makes of them
        own = frozenset(w for v in named_values_here.values for w in v.words) if yes_no and named_values_here else None
        if plan is None or not self._worth_it(plan, mention, is_hub, how_many and narrowing is None and not bare, own):
            return None
        if mention.typo and (len(plan.steps) < 2 or how_many or ordering is not None):
            return None  # a name with a typo in one hop, a count or an order: the exact answers' own reading
        if asked[mention.start : mention.end].casefold() in demonyms(mention.label):
            return None  # "nigerian authors": a country's adjective, which the exact answers read as the country
        unknown = _unknown_value(asked, plan) if any_yes_no else None  # "was X born in *paris*?"
        if unknown and self._in_some_label(unknown):
            return None  # "has X published at *icse*?": a label's acronym or word, the exact answers' to link
        if any_yes_no and (set(plan.unexplained) - _EXISTENTIAL_WORDS - {unknown} or narrowing is not None or bare):
            return None  # "was X a success?": a word the chain does not read; HubLink's retrieval answers
        start = [Entity(i, mention.label, tuple(sorted(mention.types))) for i in mention.ids]
        plan = self._anchored(plan, start, set(mention.types))
        if narrowing is not None:
            narrowing.plan_steps = plan.steps
        latest_at = self._latest_at(plan, mention, top, fanout) if top is not None else None
        said_noun = top.noun if top is not None and top.noun.isalpha() else "answer"  # "the latest *movie*"
        if latest_at is not None:
            top = None  # the latest of a hop on the way, not of the ends
        t1 = time.perf_counter()
        named = _named_outside(asked, (mention.start, mention.end))
        result = follow_chain(
            self.store,
            start,
            plan.steps,
            fanout,
            revisit=plan.plain_path(asked),
            named=named,
            exclude=frozenset(params.exclude_entities),
            narrowers=[n for n in (narrowing, latest_at) if n is not None],
            # one item on the way: all of its values, the topic's too; a count of what "the director of X"
            # made counts X too
            whole_last=latest_at is not None or self._counts_the_topic(asked, plan, mention),
        )
        if narrowing is not None and narrowing.unmet:
            answer = _compose_none(question, plan, result, narrowing.unmet[0], mode, self._topic_hubs(start, is_hub))
            answer.timings = {"question": t1 - t0, "retrieve": time.perf_counter() - t1, "generate": 0.0}
            return _verdict(answer, False) if yes_no else answer
        reached_value = None
        if yes_no and (narrowing is None or not narrowing.used):
            # "did X direct Y?": yes where the chain reaches Y, no where it reaches others of Y's type
            reached_value = _reaches_value(named_values_here, result)
            if reached_value is None:
                return None  # a value the chain neither narrowed by nor reached: the exact answers' or HubLink's
            if reached_value and named_values_here is not None:  # "yes: X is the actor of Y", not of all X's films
                asked_for = {e.id for v in named_values_here.values for e in v.entities}
                result.ends = [e for e in result.ends if e.id in asked_for] or result.ends
        if not result.ends and self._no_inverse(asked, plan, mention):
            # "who cites X" where nothing cites X: said so, not what X cites
            answer = _compose_no_subject(question, plan, result, mode, self._topic_hubs(start, is_hub))
            answer.timings = {"question": t1 - t0, "retrieve": time.perf_counter() - t1, "generate": 0.0}
            return answer
        if any_yes_no and not result.ends and not result.truncated:
            answer = _compose_nothing(question, plan, result, mode, self._topic_hubs(start, is_hub), self.reader)
            answer.timings = {"question": t1 - t0, "retrieve": time.perf_counter() - t1, "generate": 0.0}
            return _verdict(answer, False)
        if window is not None and result.ends:
            dated = self._in_window(plan, mention, result, window, fanout)
            if dated is None:
                return None  # the ends state no year
            if not dated:
                answer = _compose_outside(question, plan, result, window, mode, self._topic_hubs(start, is_hub))
                answer.timings = {"question": t1 - t0, "retrieve": time.perf_counter() - t1, "generate": 0.0}
                return answer
            result.ends = dated
        if not result.ends or _containers(result):
            return None
        if reached_value is None and any(named(e) for e in result.ends):
            return None  # "romance movies in french": a value the question names is a constraint, not an answer
        if reached_value is None and narrowing is not None and _only_named(result.ends, narrowing):
            return None  # "which thai dishes are vegetarian" read as Vegetarian's cuisines narrowed to Thai
        keyed = None
        if ordering is not None:
            keyed = key_values(
                self.store, self.reader.schema, result.ends, self._end_types(plan, mention), ordering.key, fanout
            )
            if keyed is None or not keyed.values:
                return None  # nothing states the value to order by: HubLink's retrieval answers
        t2 = time.perf_counter()
        topic_hubs = self._topic_hubs(result.start, is_hub)
        latest = self._time_keyed(plan, mention, result, top, fanout) if top is not None else None
        if top is not None and latest is None:
            return None  # "which book by X is the oldest" where no year or date is named: not all of them
        if ordering is not None and keyed is not None:
            answer = _compose_ordered(question, plan, result, ordering, keyed, params, is_hub, mode, topic_hubs)
        elif top is not None and latest is not None:
            answer = _compose_ordered(question, plan, result, top, latest, params, is_hub, mode, topic_hubs)
        else:
            answer = _compose(question, plan, result, params, is_hub, mode, topic_hubs)
        said = [f"those {narrowing.phrase()}"] if narrowing is not None and narrowing.used else []
        if window is not None:
            said.append(f"those dated {window.phrase}")
        if latest_at is not None and latest_at.kept:
            word = "latest" if latest_at.descending else "earliest"
            kept = join_items([f"'{e.text}'" for e in latest_at.kept])
            said.append(f"through the {word} {_noun_of(latest_at.kept, said_noun)}, {kept}")
        if said:
            answer.answer = f"{answer.answer.rstrip('.')} ({'; '.join(said)})."
        answer.timings = {"question": t1 - t0, "retrieve": t2 - t1, "generate": time.perf_counter() - t2}
        if any_yes_no and unknown:  # a name no label of the graph has: no, with what the graph states
            return _verdict(answer, any(unknown in _WORD.findall(e.text.lower()) for e in result.ends))
        return _verdict(answer, reached_value is not False) if yes_no or any_yes_no else answer

    def _anchored(self, plan: ChainPlan, start: list[Entity], types: set[str]) -> ChainPlan:
        """The plan with a first step the topic has: a step no question word named (a bridge the schema
        chose by weight, "ada whitcombe's movies": cast member) is swapped, where the topic has none of
        it (or where it is the way out of a sharing no word named), for the step to the same types that
        the topic has most triples along (director). A named step stays."""
        first = plan.steps[0]
        # the step out of a sharing no word named ("which *actors* worked *with* X": out along what X has,
        # back along cast member) may be swapped even where the word names the step back
        out_and_back = plan.steps[1:2] == ((first[0], -first[1]),) and any(
            m.inferred and m.share and m.predicate == first[0] for m in plan.mentions
        )
        # "who acted in X's movies": one word names the step twice (to X's movies and to their cast); the
        # first was the schema's bridge, so it may be swapped where X has none of it
        named = [m for m in plan.mentions if m.predicate == first[0] and not m.inferred]
        twice = len(named) == 1 and not named[0].share and any(p == first[0] for p, _ in plan.steps[1:])
        if not out_and_back and named and not twice:
            return plan
        layout = layout_of(self.store)
        if not out_and_back and layout.step(start, first[0], first[1], 1):
            return plan
        # the one the topic has most triples along ("carmela tremblay's films": the seven she directed,
        # not the one she wrote; "which directors has X worked with": the films X acted in, where X
        # acted in more than X directed); the schema's order among equals
        had = [(len(layout.step(start, s[0], s[1], ANCHOR_COUNT_CAP)), s) for s in self.reader.bridges(types, first)]
        best = max(had, key=lambda h: h[0], default=(0, first))
        return replace(plan, steps=(best[1], *plan.steps[1:])) if best[0] else plan

    def _read_plan(
        self,
        asked: str,
        span: tuple[int, int] | None,
        mention: TopicMention,
        narrowing: Narrowing | None,
        is_hub: IsHub,
        by_preposition: bool,
        value_is_end: bool = False,
    ) -> tuple[ChainPlan | None, Narrowing | None, bool]:
        """The chain's plan, the values that narrow it (`narrowing`, or None where none applies), and
        whether the plan is a bare topic's one step into what it is the value of (`ChainReader.bare`).
        With `value_is_end` (a yes/no question), a value may be what the chain reaches instead."""
        types = set(mention.types)
        plan = self.reader.plan(asked, span, types, MAX_HOPS, by_preposition=by_preposition)
        value_words = frozenset(w for v in narrowing.values for w in v.words) if narrowing is not None else frozenset()
        words = value_words
        if narrowing is not None:
            # the words naming a value's own relation ("*written* by B") are the value's, not a step
            words |= {v.lead for v in narrowing.values if v.label in narrowing.named_by}
            narrowed = self.reader.plan(asked, span, types, MAX_HOPS, words, True)
            if narrowed is not None and narrowing.applies(self._hop_types(narrowed, mention)):
                return narrowed, narrowing, False
            if words != value_words:  # "which films star A and B": "star" is B's relation and the topic's
                narrowed = self.reader.plan(asked, span, types, MAX_HOPS, value_words, True)
                if not value_is_end and narrowed is not None and narrowing.applies(self._hop_types(narrowed, mention)):
                    return narrowed, narrowing, False
            misread = plan is None or any(set(m.word.split()) & value_words for m in plan.mentions if m.predicate)
            if value_is_end and narrowed is not None and misread and not any(is_hub(i) for i in mention.ids):
                # "did X study at MIT?" (X no hub, whose facts the exact answers read): the chain ends at it
                return narrowed, None, False
        if plan is not None and narrowing is not None:
            if any(set(m.word.split()) & value_words for m in plan.mentions if m.predicate):
                # "which *case study* papers did X write": a value the chain cannot place, read as a
                # relation ("study": research field); the exact answers place it (two steps away)
                return None, None, False
        if plan is not None or any(is_hub(i) for i in mention.ids):
            return plan, None, False
        bare = self.reader.bare(asked, span, types, words) if words else None
        if bare is not None and narrowing is not None and narrowing.applies(self._hop_types(bare, mention)):
            return bare, narrowing, True
        bare = self.reader.bare(asked, span, types, frozenset())
        return bare, None, bare is not None

    def _narrowing(self, question: str, mention: TopicMention, fanout: int) -> Narrowing | None:
        """The values the question names beside its topic (`values.named_values`), ready to narrow a
        chain's hops to the entities that have them; None where it names none."""
        index = self._label_index()
        # a year is a value only where no exact answers read it with the topic (a graph past the catalog's
        # ceiling, a topic the catalog does not link: people as the subjects of their films)
        years = not self._counts_exactly(question, (mention.start, mention.end))
        values = named_values(
            question,
            (mention.start, mention.end),
            partial(labels_in, self.store, index=index),
            self.reader.cues.vocabulary,
            years,
        )
        if not values:
            return None
        narrowing = Narrowing(layout_of(self.store), self.reader.schema, values, fanout)
        said = {m.word: m.predicate for m in self.reader.mentions(question, (mention.start, mention.end))[0]}
        # "written by B": B along "written"; not "did X direct *a drama*", where "direct" leads to no genre
        narrowing.named_by = {v.label: p for v in values if (p := said.get(v.lead)) and narrowing.may_be_along(p, v)}
        return narrowing

    def _time_keyed(
        self, plan: ChainPlan, mention: TopicMention, result: ChainResult, top: Ordering, fanout: int
    ) -> Keyed | None:
        """The years or dates the latest / earliest of the ends is read by: the ends themselves where they
        are such values, else each end's year or date where the question names the ends' type ("the most
        recent *film* by X") or closes with the superlative ("... direct first"); None otherwise."""
        if all(e.is_literal for e in result.ends):
            values = {e.id: e.label for e in result.ends if sortable(e.label)[0] == 0}
            return Keyed(plan.steps[-1][0], values, {}) if values else None
        types = self._end_types(plan, mention)
        named = any(m.type_name in types for m in plan.mentions if m.type_name)
        if not (named or top.closing):
            return None  # "who directed X's latest film": the superlative is of a hop on the way
        return time_keyed(self.store, self.reader.schema, result.ends, types, fanout)

    def _latest_at(self, plan: ChainPlan, mention: TopicMention, top: Ordering, fanout: int) -> LatestAt | None:
        """Where the superlative's noun names the entities of a hop before the last ("who directed X's
        *latest film*": the films), the narrower that keeps the latest / earliest of them; else None."""
        named = {m.type_name for m in plan.mentions if m.type_name and m.word == top.noun}
        hops = self._hop_types(plan, mention)[:-1]
        at = next((i for i, types in enumerate(hops) if named & types), None)
        if at is None and top.noun in plan.unexplained:
            # a graph without types ("the genre of the newest *movie* by X": "movie" names nothing): the
            # last hop on the way whose entities state a year, where the ends state none
            schema = self.reader.schema
            dated = [i for i, types in enumerate(hops) if time_literal(schema, types) is not None]
            if dated and time_literal(schema, self._end_types(plan, mention)) is None:
                at = dated[-1]
        if at is None:
            return None
        return LatestAt(self.store, self.reader.schema, at, top.descending, fanout)

    def _hop_types(self, plan: ChainPlan, mention: TopicMention) -> list[set[str]]:
        """The types each step of the plan reaches from the topic's types (by the schema)."""
        types, out = set(mention.types), []
        for predicate, direction in plan.steps:
            types = self.reader.schema.step(predicate, direction, types)
            out.append(types)
        return out

    def _end_types(self, plan: ChainPlan, mention: TopicMention) -> set[str]:
        """The types the chain's steps reach from the topic's types (by the schema)."""
        return self._hop_types(plan, mention)[-1] if plan.steps else set(mention.types)

    def topic(self, question: str, params: RetrievalParams) -> TopicMention | None:
        """The given topic where the question names it (None where it does not), else the longest entity
        label the question writes (`link_topic`). Remembered for the last question: the chain reader
        and HubLink's components of the same question read the graph once."""
        key = (question, params.topic_entity)
        last = self._last_topic
        if last is not None and last[0] == key:
            return last[1]
        mention = self._read_topic(question, params)
        self._last_topic = (key, mention)
        return mention

    def _read_topic(self, question: str, params: RetrievalParams) -> TopicMention | None:
        if params.topic_entity:
            try:
                e = resolve_entity(self.store, params.topic_entity)
            except KgqaError:
                return None
            where = find_mention(question, e.label)
            if where is None:  # a given entry point the question does not name: HubLink's traversal
                return None
            return TopicMention((e.id,), e.label, types_of(layout_of(self.store), [e]), where[0], where[1])
        self._linked += 1
        index = self._label_index()
        found = link_topic(self.store, question, index) or link_plural_topic(
            self.store, question, index, self.reader.cues.vocabulary
        )
        if found is None or self._slip_beside(question, found, index):
            # "who directed crimson gardn": a label word's slip; "bitter parade reurns": a longer label's
            spelled = self._spelled_topic(question, index)
            if found is None or (spelled is not None and _covers(spelled, found)):
                found = spelled
        if found is None and self._typed_topic is not None:
            found = self._typed_topic(question)  # "who directed the movies written by hiroshi achterbreg"
        return found

    def _spelled_topic(self, question: str, index: LabelIndex | None) -> TopicMention | None:
        """The longest label the question names once its words that no label writes are read as the
        nearest label words (kgqa/retrieval/chains/spelling.py); the mention spans the words as written."""
        spelling = self._label_spelling(index)
        spelled = spelling.correct(question, self.reader.cues.vocabulary) if spelling is not None else None
        if spelling is None or spelled is None:
            return None
        found = link_topic(self.store, spelled.text, index)
        if found is None or not spelling.takes(found.label, spelled, found.start, found.end):
            return None
        start, end = spelled.written_span(found.start, found.end)
        return replace(found, start=start, end=end)

    def _slip_beside(self, question: str, found: TopicMention, index: LabelIndex | None) -> bool:
        """Whether a word next to the topic as written is a slip of a label word (a longer label's end)."""
        spelling = self._label_spelling(index)
        return spelling is not None and spelling.slip_beside(
            question, found.start, found.end, self.reader.cues.vocabulary
        )

    def _label_spelling(self, index: LabelIndex | None) -> LabelSpelling | None:
        """The words of the graph's labels, read once (from `index` where the labels are in memory; None
        where the layout cannot list its labels or holds more than MAX_LABELS)."""
        if self._spelling is None and not self._spelling_tried:
            self._spelling_tried = True
            if index is not None:
                self._spelling = LabelSpelling(index.labels())
            elif (entities := self._graph_labels()) is not None:
                self._spelling = LabelSpelling(e.label for e in entities)
        return self._spelling

    def prime_labels(self, like: ChainAnswerer | None = None) -> None:
        """A service before its first question: the graph's labels in memory now (read-only databases
        whose layout lists them), or those of `like`, a primed answerer on the same database state, so
        that a pool's workspaces share one copy and none pays for it at a question; the words of those
        labels too, for names written with a typo."""
        if like is not None and like._labels_tried:
            self._labels, self._labels_tried = like._labels, True
            self._spelling, self._spelling_tried = like._spelling, like._spelling_tried
            return
        self._linked = max(self._linked, 2)
        if self._label_index() is not None:
            self._label_spelling(self._labels)

    def _label_index(self) -> LabelIndex | None:
        """The graph's labels in memory, read at the second question whose topic is linked (one question
        alone is cheaper to search for in the graph), for a read-only database whose layout lists its
        labels; None otherwise (each question searches the graph)."""
        if self._labels is None and not self._labels_tried and self._linked >= 2 and self.store.read_only:
            self._labels_tried = True
            entities = self._graph_labels()
            if entities is not None:
                self._labels = LabelIndex(entities)
        return self._labels

    def _graph_labels(self) -> list[Entity] | None:
        """Every entity with a label of MIN_LABEL_LENGTH or more, read from the graph; None where the
        layout cannot list them, there are none, or more than MAX_LABELS."""
        read = getattr(layout_of(self.store), "entity_labels", None)
        entities = read(MIN_LABEL_LENGTH) if callable(read) else []
        return entities if 0 < len(entities) <= MAX_LABELS else None

    def _no_inverse(self, question: str, plan: ChainPlan, mention: TopicMention) -> bool:
        """Whether the chain is one step back along a verb that links the topic's kind both ways, asked
        with the topic its object ("who cites X"), so that reaching nothing is the answer."""
        if len(plan.steps) != 1 or plan.steps[0][1] > 0 or not verbal_label(plan.steps[0][0]):
            return False
        masked = question[: mention.start] + "X" + question[mention.end :]
        return self.reader.both_ways(plan.steps[0][0], set(mention.types)) and asks_inverse(masked, plan.steps[0][0])

    def _in_window(
        self, plan: ChainPlan, mention: TopicMention, result: ChainResult, window: YearWindow, fanout: int
    ) -> list[Entity] | None:
        """The chain's ends whose year or date is in `window` (their year triples join their evidence), or
        None where the ends state neither."""
        if all(e.is_literal for e in result.ends):
            return None
        keyed = time_keyed(self.store, self.reader.schema, result.ends, self._end_types(plan, mention), fanout)
        if keyed is None:
            return None
        kept = [e for e in result.ends if (y := year_of(keyed.values.get(e.id, ""))) is not None and window.holds(y)]
        last = result.reached_by[-1] if result.reached_by else {}
        for e in kept:
            last.setdefault(e.id, []).append(keyed.triples[e.id])
        return kept

    def _counts_the_topic(self, question: str, plan: ChainPlan, mention: TopicMention) -> bool:
        """ "how many films did *the director of X* make": a count that goes from the topic to its own
        relation's value (a noun bound to the topic by "of" or a possessive: "director", "artist") and back
        to the topic's kind counts all the value has, the topic among them; "how many actors acted with
        X", "how many *other* films ..." leave it out."""
        steps, types = plan.steps, set(mention.types)
        if not counts(question) or len(steps) != 2 or not plan.plain_path(question):
            return False
        reached = self.reader.schema.step(*steps[0], types)
        if not self.reader.schema.step(*steps[1], reached) & types:
            return False  # the count is not of the topic's own kind
        masked = question[: mention.start].lower() + "X" + question[mention.end :].lower()
        for m in plan.mentions:
            if (m.predicate == steps[0][0] and not m.inferred) or (m.type_name and m.type_name in reached):
                word = re.escape(m.word.lower())
                if re.search(rf"\b{word}\s+of\s+X\b|\bX(?:'s|'|s)?\s+{word}\b", masked):
                    return True
        return False

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
    def _worth_it(
        plan: ChainPlan, mention: TopicMention, is_hub: IsHub, how_many: bool, own: frozenset[str] | None = None
    ) -> bool:
        """A chain leaves the topic's hub, or starts outside any hub, or explains all but one word of
        the question (`own`: words explained otherwise); otherwise (and for one-hop counts, but those of
        what points at a hub) the hub retrieval and its answer composer read it. A plan that leaves most of the question unread (four
        words or more, twice its mentions: a title typed with a slip that linked one word of it) is none."""
        if len(plan.unexplained) >= max(4, 2 * len(plan.mentions)):
            return False
        if len(plan.steps) >= 2:
            return True
        if how_many:  # "how many people report to X" (X a hub): what points at X is in other hubs
            return plan.steps[0][1] < 0 and any(is_hub(i) for i in mention.ids)
        if not any(is_hub(i) for i in mention.ids):
            return True
        unexplained = [w for w in plan.unexplained if not own or w.lower() not in own]
        return len(unexplained) <= 1  # a verb ("describe", "attached"); more is a constraint


_WORD = re.compile(r"[a-z0-9]+")
#: Labels read to tell whether a word a yes/no question closes with is part of some label.
LABEL_PROBE = 20
#: Words a yes/no question may add to its chain's relation ("has X *ever* directed *any* films?").
_EXISTENTIAL_WORDS = frozenset({"ever", "any", "anything", "anyone", "someone", "something", "single", "yet"})
#: Triples counted per candidate first step where the topic's own steps are weighed (`_anchored`).
ANCHOR_COUNT_CAP = 1000
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
    how_many = counts(question)
    total, some = len(result.ends), None if how_many else asked_number(question)
    if some is not None and 0 < some < total:  # "name 2 books published by X": two of them
        result = replace(result, ends=result.ends[:some])
    sources, cites = _cited(result.ends, result, is_hub, topic_hubs)
    parts = [f"{end.text} {cites[end.id]}".rstrip() for end in result.ends]
    items = [e.text for e in result.ends]
    listing = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    start = result.start[0].text
    text = _sentence(question, listing, len(items), how_many, start) or _chain_sentence(
        plan.steps, start, listing, len(items)
    )
    outcome: dict[str, Any] = {
        "operation": "count" if how_many else "value" if len(items) == 1 else "list",
        "value": len(items) if how_many else items[0] if len(items) == 1 else None,
        "items": items,
        "groups": {},
    }
    if len(items) < total:
        text = f"{text[:-1]} ({len(items)} of {total})."
        outcome["total"] = total
    triples = _evidence_triples(result, params.max_output_triples)
    return _chain_answer(question, plan, result, text, sources, triples, mode, outcome)


def _reaches_value(narrowing: Narrowing | None, result: ChainResult) -> bool | None:
    """Whether the chain's ends hold a value the question names (True), hold only other entities of its
    type (False), or neither can be said (None)."""
    if narrowing is None:
        return None
    ends = {e.id for e in result.ends}
    if any(e.id in ends for v in narrowing.values for e in v.entities):
        return True
    end_types = {t for e in result.ends for t in e.types}
    return False if any(set(e.types) & end_types for v in narrowing.values for e in v.entities) else None


def _verdict(answer: Answer, yes: bool) -> Answer:
    """A chain's answer to a yes/no question: "Yes: " before what it reached, "No: " before the sentence
    that none has the value; `result.value` says which."""
    text = answer.answer
    head, _, rest = text.partition(" ")
    if head in ("The", "None", "One", "A", "An"):  # not a name ("Carmela Achterberg directed ...")
        text = f"{head.lower()} {rest}"
    answer.answer = ("Yes: " if yes else "No: ") + text
    answer.result = {**(answer.result or {}), "value": "yes" if yes else "no"}
    return answer


def _compose_no_subject(
    question: str, plan: ChainPlan, result: ChainResult, mode: str, topic_hubs: list[Entity]
) -> Answer:
    """ "Nothing in the graph cites 'X' [1]." for one step back that reaches nothing (the topic cited)."""
    predicate = plan.steps[0][0]
    topic = result.start[0].text
    sources, cite = _topic_source(topic_hubs)
    text = f"Nothing in the graph {predicate} '{topic}'{cite}."
    outcome: dict[str, Any] = {"operation": "list", "value": None, "items": [], "groups": {}}
    return _chain_answer(question, plan, result, text, sources, [], mode, outcome)


def _topic_source(topic_hubs: list[Entity]) -> tuple[dict[str, Source], str]:
    """The topic's own hub as source [1] of an answer that reached nothing, and its citation ("" without one)."""
    sources = {h.id: Source(1, h.id, h.label or h.id) for h in topic_hubs[:1]}
    return sources, " [1]" if sources else ""


def _compose_outside(
    question: str, plan: ChainPlan, result: ChainResult, window: YearWindow, mode: str, topic_hubs: list[Entity]
) -> Answer:
    """ "None of the 7 movies that X directed is dated after 1990 [1]." where none of the ends is."""
    types = sorted({t for e in result.ends for t in e.types if t != LITERAL})
    noun = types[0].lower() if len(types) == 1 else "entity"
    n = len(result.ends)
    sources, cite = _topic_source(topic_hubs)
    way = _reached_phrase(plan.steps, result.start[0].text, n)
    text = f"None of the {n} {plural(noun) if n > 1 else noun}{way} is dated {window.phrase}{cite}."
    outcome: dict[str, Any] = {
        "operation": "count" if counts(question) else "list",
        "value": 0 if counts(question) else None,
        "items": [],
        "groups": {},
    }
    return _chain_answer(question, plan, result, text, sources, [], mode, outcome)


def _of_own_kind(values: list[NamedValue], mention: TopicMention) -> bool:
    """Whether a value the question names is of the topic's own type (another film beside a film)."""
    return any(set(e.types) & mention.types for v in values for e in v.entities if not e.is_literal)


def _unknown_value(question: str, plan: ChainPlan) -> str | None:
    """The one word the chain does not read where it closes a yes/no question after its relation ("was X
    born in *paris*?", "is X from *atlantis*?"): a value the graph has no label for; None otherwise (a
    number is the exact answers' to read)."""
    words = _WORD.findall(question.lower())
    rest = [w for w in plan.unexplained if w not in _EXISTENTIAL_WORDS]
    if len(rest) != 1 or not words or words[-1] != rest[0] or rest[0].isdigit() or not plan.mentions:
        return None
    return rest[0]


def _compose_nothing(
    question: str, plan: ChainPlan, result: ChainResult, mode: str, topic_hubs: list[Entity], reader: ChainReader
) -> Answer:
    """ "The graph has no movie with cast member 'A' [1]." for a yes/no question whose chain reaches
    nothing ("has A acted in any films?")."""
    types = {t for e in result.start for t in e.types}
    for predicate, direction in plan.steps:
        types = reader.schema.step(predicate, direction, types)
    named = sorted(t for t in types if t != LITERAL)
    noun = named[0].lower() if len(named) == 1 else "entity"
    sources, cite = _topic_source(topic_hubs)
    text = f"The graph has no {noun}{_reached_phrase(plan.steps, repr(result.start[0].text))}{cite}."
    outcome: dict[str, Any] = {"operation": "list", "value": None, "items": [], "groups": {}}
    return _chain_answer(question, plan, result, text, sources, [], mode, outcome)


def _compose_none(
    question: str, plan: ChainPlan, result: ChainResult, unmet: Unmet, mode: str, topic_hubs: list[Entity]
) -> Answer:
    """The answer where a value the question names is had by none of the entities the chain reached:
    "None of the 8 movies with director A has genre Comedy [1]." (the topic's hub cited)."""
    reached = result.reached_by[unmet.hop] if unmet.hop < len(result.reached_by) else {}
    step = plan.steps[unmet.hop]
    types = sorted({t for ts in reached.values() if ts for t in _far_end(ts[0], step).types})
    noun = types[0].lower() if len(types) == 1 else "entity"
    noun = noun if unmet.among == 1 else plural(noun)
    sources, cite = _topic_source(topic_hubs)
    way = _reached_phrase(plan.steps[: unmet.hop + 1], result.start[0].text, unmet.among)
    text = f"None of the {unmet.among} {noun}{way} {unmet.sentence_end()}{cite}."
    if unmet.among == 1:
        text = f"The one {noun}{way} {unmet.sentence_end()}{cite}."
    triples = list(dict.fromkeys(t.canonical for ts in reached.values() for t in ts[:1]))[:12]
    outcome: dict[str, Any] = {
        "operation": "count" if counts(question) else "list",
        "value": 0 if counts(question) else None,
        "items": [],
        "groups": {},
    }
    return _chain_answer(question, plan, result, text, sources, triples, mode, outcome)


def _top(
    result: ChainResult, plan: ChainPlan, top: Ordering, keyed: Keyed, is_hub: IsHub, topic_hubs: list[Entity]
) -> tuple[str, dict[str, Any], dict[str, Source], list[Entity]]:
    """The latest or earliest of the chain's ends by their year or date (ties all named): "The latest of
    the 8 movies with director A is 'X' (2019) [1]."; ends that are years themselves give the value. The
    text, the result, the sources and the ends named."""
    values = keyed.values
    stated = [e for e in result.ends if e.id in values]
    winners = extremes(keyed, result.ends, top.descending)
    sources, cites = _cited(winners, result, is_hub, topic_hubs)
    word = "latest" if top.descending else "earliest"
    start = result.start[0].text
    if all(e.is_literal for e in result.ends):
        listing = join_items([f"{e.text} {cites[e.id]}".rstrip() for e in winners])
        text = f"The {word} is {listing} (of {len(stated)} values reached from '{start}')."
    else:
        listing = join_items([f"'{e.text}' ({values[e.id]}) {cites[e.id]}".rstrip() for e in winners])
        noun = _noun_of(result.ends)
        verb = "is" if len(winners) == 1 else "are"
        text = f"The {word} of the {len(result.ends)} {noun}{_reached_phrase(plan.steps, start, len(result.ends))} {verb} {listing}."
    outcome = {
        "operation": "max" if top.descending else "min",
        "value": winners[0].text if len(winners) == 1 else [e.text for e in winners],
        "items": [e.text for e in winners],
        "groups": {e.text: values[e.id] for e in stated},
    }
    return text, outcome, sources, winners


def _far_end(triple: Triple, step: tuple[str, int]) -> Entity:
    """The entity a step reached along `triple` (its object going forward, its subject going back)."""
    return triple.object if step[1] > 0 else triple.subject


def _compose_ordered(
    question: str,
    plan: ChainPlan,
    result: ChainResult,
    ordering: Ordering,
    keyed: Keyed,
    params: RetrievalParams,
    is_hub: IsHub,
    mode: str,
    topic_hubs: list[Entity],
) -> Answer:
    """The chain's ends ranked by the value the question names, or counted per value: "The 3 papers with
    author A, in descending order of publication year: 1. 'X' (2024) [1]; ...", or the latest / earliest
    of them (`_top`)."""
    outcome: dict[str, Any]
    values = keyed.values
    stated = [e for e in result.ends if e.id in values]
    if ordering.operation == "top":
        text, outcome, sources, named = _top(result, plan, ordering, keyed, is_hub, topic_hubs)
        stating = [keyed.triples[e.id] for e in named if e.id in keyed.triples]
        triples = _evidence_triples(replace(result, ends=named), params.max_output_triples, stating)
        return _chain_answer(question, plan, result, text, sources, triples, mode, outcome)
    noun = _noun_of(result.ends)
    reached = _reached_phrase(plan.steps, result.start[0].text, len(result.ends))
    key = _readable(keyed.predicate)
    if ordering.operation == "rank":
        ordered = sorted(stated, key=lambda e: (sortable(values[e.id]), e.text.casefold()))
        if ordering.descending:
            ordered.sort(key=lambda e: sortable(values[e.id]), reverse=True)
        ordered += [e for e in result.ends if e.id not in values]
        sources, cites = _cited(ordered, result, is_hub, topic_hubs)
        numbered = [
            f"{i}. '{e.text}' ({values.get(e.id, 'not stated')}) {cites[e.id]}".rstrip()
            for i, e in enumerate(ordered, 1)
        ]
        direction = "descending" if ordering.descending else "ascending"
        text = f"The {len(ordered)} {noun}{reached}, in {direction} order of {key}: {'; '.join(numbered)}."
        outcome = {
            "operation": "rank",
            "value": None,
            "items": [e.text for e in ordered],
            "groups": {e.text: values[e.id] for e in ordered if e.id in values},
        }
    else:
        groups: dict[str, list[Entity]] = {}
        for e in sorted(stated, key=lambda e: (sortable(values[e.id]), e.text.casefold())):
            groups.setdefault(values[e.id], []).append(e)
        sources, cites = _cited([e for es in groups.values() for e in es], result, is_hub, topic_hubs)
        listing = "; ".join(f"{v}: {len(es)} {''.join(cites[e.id] for e in es)}".rstrip() for v, es in groups.items())
        missing = len(result.ends) - len(stated)
        unstated = f" ({missing} stating no {key})" if missing else ""
        text = f"The {len(result.ends)} {noun}{reached} per {key}{unstated}: {listing}."
        outcome = {
            "operation": "group",
            "value": len(stated),
            "items": [],
            "groups": {v: len(es) for v, es in groups.items()},
        }
    triples = _evidence_triples(result, params.max_output_triples, [keyed.triples[e.id] for e in stated])
    return _chain_answer(question, plan, result, text, sources, triples, mode, outcome)


def _cited(
    ends: list[Entity], result: ChainResult, is_hub: IsHub, topic_hubs: list[Entity]
) -> tuple[dict[str, Source], dict[str, str]]:
    """The sources (each hub the ends' evidence passes through, numbered in the order of `ends`) and
    each end's citation ("[n]", "" where its evidence meets no hub)."""
    sources: dict[str, Source] = {}
    cites: dict[str, str] = {}
    for end in ends:
        hub = _hub_of(result.evidence(end.id), is_hub) or (topic_hubs[0] if topic_hubs else None)
        cite = ""
        if hub is not None:
            if hub.id not in sources:
                sources[hub.id] = Source(len(sources) + 1, hub.id, hub.label or hub.id)
            cite = f"[{sources[hub.id].n}]"
        cites[end.id] = cite
    return sources, cites


def _evidence_triples(result: ChainResult, limit: int, stating: list[Triple] | None = None) -> list[str]:
    """Each end's last triple first (every answer is named while the cap allows), then the triples
    `stating` the values the ends are ordered by, then the paths to the ends."""
    evidences = [result.evidence(end.id) for end in result.ends]
    triples: list[str] = []
    seen: set[str] = set()
    for ordered in ([e[-1:] for e in evidences], [stating or []], [e[:-1] for e in evidences]):
        for evidence in ordered:
            for t in evidence:
                if len(triples) < limit and t.canonical not in seen:
                    seen.add(t.canonical)
                    triples.append(t.canonical)
    return triples


def _chain_answer(
    question: str,
    plan: ChainPlan,
    result: ChainResult,
    text: str,
    sources: dict[str, Source],
    triples: list[str],
    mode: str,
    outcome: dict[str, Any],
) -> Answer:
    """The chain's Answer: its sentence, sources, evidence, trace and structured result."""
    chain = " -> ".join(f"{p}" if d > 0 else f"(inverse) {p}" for p, d in plan.steps)
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
        result=outcome,
    )


def _noun_of(entities: list[Entity], untyped: str = "answer") -> str:
    """What the entities are, in words: their type ("papers", "movie"), else `untyped` ("answers")."""
    types = sorted({t for e in entities for t in e.types})
    noun = types[0].lower() if len(types) == 1 else untyped
    return noun if len(entities) == 1 else plural(noun)


def _reached_phrase(steps: tuple[tuple[str, int], ...], start: str, n: int = 2) -> str:
    """How the `n` ends relate to the topic, for one step back to it: " with author A", " directed by A",
    " with tags A", " that won A", " that use A"; else the chain."""
    if len(steps) == 1 and steps[0][1] < 0:
        words = _readable(steps[0][0])
        first, _, rest = words.partition(" ")
        if first in ("has", "have") and rest:
            return f" with {rest} {start}"
        if not verbal_label(words):  # "director" for "directed_by": " with director A"
            return f" with {words} {start}"
        if words.split()[-1] == "by":  # "directed by A"
            return f" {words} {start}"
        return f" that {agreeing(words, n)} {start}"  # "that won A", "that acted in A", "that use A"
    if len(steps) == 1:  # forward: "that A directed", "that are the genres of A"
        words = _readable(steps[0][0])
        return f" that {start} {words}" if verbal_label(words) else f" that are the {plural(words)} of {start}"
    chain = " -> ".join(_readable(p) if d > 0 else f"(inverse) {_readable(p)}" for p, d in steps)
    return f" reached from {start} ({chain})"


def _containers(result: ChainResult) -> bool:
    """Whether the chain ends in nodes named after the relation that reached them ("authors" ->
    "authors list"): containers whose members HubLink's hub paths state."""
    words = label_words(result.steps[-1][0])
    return bool(words) and all(words in e.label.lower() for e in result.ends)


def _sentence(question: str, listing: str, n: int, how_many: bool, start: str = "") -> str | None:
    """The answer as a sentence when the question is "Who/What/Which are|is <phrase>?" ("The authors
    of the paper 'X' are A [1] and B [1].") or asks how many; None for other wordings. The topic as the
    question typed it ("silent echo") is said as the graph labels it (`start`: 'Silent Echo')."""
    if how_many:
        return f"{n_words(n).capitalize()} ({n}): {listing}."
    m = re.match(r"^\s*(?:who|what|which)\s+(?:are|is|were|was)\s+(.+?)\s*\??\s*$", question, re.IGNORECASE)
    if not m or not m.group(1).lower().startswith("the "):
        return None
    phrase = m.group(1)
    if start and start not in phrase:
        phrase = re.sub(
            rf"(?<![\w'])'?{re.escape(start)}'?(?![\w'])", f"'{start}'", phrase, count=1, flags=re.IGNORECASE
        )
    noun = phrase.split()[1] if len(phrase.split()) > 1 else ""
    if (n > 1) != (plural(noun) == noun):  # "the genre of X" with two genres, "the authors of X" with one:
        return None  # the labels' sentence says it
    return f"{phrase[0].upper()}{phrase[1:]} {'are' if n > 1 else 'is'} {listing}."


def _chain_sentence(steps: tuple[tuple[str, int], ...], start: str, listing: str, n: int) -> str:
    """The answer in words from the predicate labels: "The venue of 'X' is V [1].", "'A' is the author
    of P [1] and Q [2].", or for longer chains the answers with the way they were reached."""
    steps = tuple((_readable(p), d) for p, d in steps)
    if len(steps) == 1:
        predicate, direction = steps[0]
        backwards = re.fullmatch(r"(.+) \((.+)\)", predicate)  # a rel read backwards: "person (acted in)"
        if backwards and verbal_label(backwards.group(2)):  # "Mei [1] acted in 'X'"
            verb = backwards.group(2)
            return f"{listing} {verb} '{start}'." if direction > 0 else f"'{start}' {verb} {listing}."
        if verbal_label(predicate):  # the triple read as it stands: "A [1] wrote 'X'", "'X' published at V [1]"
            if direction < 0:  # "Optics [1] and Genetics [2] are taught by 'X'", "A [1] wrote 'X'"
                return f"{listing} {agreeing(_with_copula(predicate), n)} '{start}'."
            return f"'{start}' {_with_copula(predicate)} {listing}."
        counted = re.fullmatch(r"(\d[\d.,]*) (\[\d+\])", listing)
        if (
            direction > 0
            and n == 1
            and counted
            and plural(singular_phrase(predicate)) == predicate != singular_phrase(predicate)
        ):
            return f"'{start}' has {counted.group(1)} {predicate} {counted.group(2)}."  # "'X' has 10 minutes [1]."
        if direction > 0:  # "The screenwriters of 'X' are A [1] and B [1]."
            return f"The {plural(predicate) if n > 1 else singular_phrase(predicate)} of '{start}' {'are' if n > 1 else 'is'} {listing}."
        return f"'{start}' is the {singular_phrase(predicate)} of {listing}."  # not "the starred actors of"
    way = " → ".join(p if d > 0 else _backwards(p) for p, d in steps)
    return f"{listing} (from '{start}': {way})."  # a label as the graph writes it ("queuely", not "Queuely")


#: Participles that open a label and read as passive only ("born in": "'X' was born in Lyon"), with the
#: verb that goes before them.
_PASSIVE = {
    "born": "was",
    "published": "was",
    "released": "was",
    "filmed": "was",
    "headquartered": "is",
    "located": "is",
    "based": "is",
    "situated": "is",
}


def _with_copula(label: str) -> str:
    """ "born in" -> "was born in", "headquartered in" -> "is headquartered in", a label in the passive
    ("taught by") -> "is taught by"; other labels as they are ("wrote", "acted in", "comes from")."""
    first, _, rest = label.lower().partition(" ")
    if first in _PASSIVE and rest:
        return f"{_PASSIVE[first]} {label}"
    if in_the_passive(label):
        return f"is {label}"  # "is taught by", "is written in", "is licensed under"
    return label


def _backwards(label: str) -> str:
    """A predicate read from its object to its subject: "director of", "directed by", "acted in (by)"."""
    if not verbal_label(label):
        return f"{label} of"
    return f"{label} by" if label.endswith("ed") else f"{label} (by)"


def _readable(predicate: str) -> str:
    """A machine-style label as people say it ("directed_by" -> "director", "has_genre" -> "genre",
    "releaseYear" -> "release year"); a label written as words stays as it is."""
    if " " not in predicate and ("_" in predicate or re.search(r"[a-z][A-Z]", predicate)):
        return spoken_name(label_words(predicate).replace(" ", "_"))  # "has_genre": "genre"
    if opens_a_noun(predicate):
        return spoken_name(predicate)  # a rel table's name as words ("IN_GENRE": "in genre"): "genre"
    return predicate


def _only_named(ends: list[Entity], narrowing: Narrowing) -> bool:
    """Whether every end is a value the question names and the chain narrowed by: the question's own
    words given back, no answer."""
    named = {e.id for v in narrowing.values for e in v.entities}
    return bool(ends) and all(e.id in named for e in ends)


def _hub_of(evidence: list[Triple], is_hub: IsHub) -> Entity | None:
    """The hub nearest the answer on an evidence path (the last hub root among its entities)."""
    for t in reversed(evidence):
        for e in (t.object, t.subject):
            if is_hub(e.id):
                return e
    return None


def _covers(longer: TopicMention, found: TopicMention) -> bool:
    """Whether `longer` spans the question's words of `found` and more."""
    return (
        longer.start <= found.start and found.end <= longer.end and longer.end - longer.start > found.end - found.start
    )
