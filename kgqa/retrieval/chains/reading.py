"""Reads a question's relation chain by meaning: which of the graph's predicates the question's words
name (embedding similarity of each word to the predicate labels, in both directions, and to the entity
types), which of them ask for entities that *share* a value ("share", "co-", "same ... as", "together
with", "common"), and in which order they apply from the topic. The steps are checked against the
graph's schema; a step the schema cannot take directly is bridged by one predicate that can.

Order: the relation bound to the topic ("the director *of X*") first, then the words after the topic
("did X *write*"), then the remaining words before it, nearest first ("the *genres* of the *films* by
..."). A chain never steps straight back: each back step leaves out where it came from."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from kgqa.answering.words import label_words, plural, same_word, verbal_label
from kgqa.embeddings.base import Embedder
from kgqa.question.components import VERB_FORMS
from kgqa.question.meaning import kind_words
from kgqa.question.verbs import (
    AGENT_NOUNS,
    OBJECT_NOUNS,
    ORIGIN_WORDS,
    PLACE_NOUNS,
    base_form,
    object_roles,
    passive_doer,
    share_a_stem,
    stems,
)
from kgqa.retrieval.chains.ordering import time_literal
from kgqa.retrieval.chains.schema import LITERAL, UNTYPED, GraphSchema, valued

#: Below this similarity a word names no predicate or type.
MATCH_THRESHOLD = 0.52
#: Similarity to one word of a multi-word label counts this much ("member" of "cast member").
PART_WEIGHT = 0.9
#: Everyday words for a hub type that more often mean something else in a question ("a case *study*",
#: "*work* together", "*show* me"): not read as the type.
_OTHER_SENSES = frozenset({"study", "work", "show", "program", "programme", "picture", "business", "individual"})
#: A shared stem of this many letters ("directed"/"director") counts as this similarity.
STEM_LENGTH = 5
STEM_SIMILARITY = 0.8
#: A noun no likelier to a label than this names the things of a graph without types, not the label.
KIND_SIMILARITY = 0.6
#: Similarities this close are a tie (the same word in two labels).
TIE = 1e-4
WH_WORDS = frozenset({"which", "what"})
SHARE_WORDS = frozenset(
    {
        "share",
        "shares",
        "shared",
        "sharing",
        "same",
        "together",
        "common",
        "co",
        "alongside",
        "fellow",
        "jointly",
        "mutual",
    }
)
#: Prepositions that may name the predicate whose label they end ("comes from", "released on").
PREPOSITIONS = frozenset({"from", "on", "at", "in"})
#: Verbs that mean a release only with their particle ("came *out*").
PHRASAL_VERBS = {"come": "out", "came": "out"}
#: Share words that name the shared value by its type right after them ("the same *city* as X").
SAME_WORDS = frozenset({"same", "common", "shared"})
_SHARE_VERBS = frozenset(w for w in SHARE_WORDS if w.startswith("shar"))  # share, shares, shared, sharing
#: Words that ask for entities other than the topic ("the *other* films by the director of X").
OTHER_WORDS = frozenset({"other", "others", "else", "another", "different", "besides", "apart", "except", "excluding"})
#: "whose directors *also* directed X", "whose actors also appear in X": entities other than X sharing a value.
_ALSO_OF_WHOSE = re.compile(r"\bwhose(?:\s+[a-z-]+){1,2}\s+also\b")
#: Prepositions a predicate label may end in, which tell two labels of one verb apart ("works in", "works on").
_LABEL_PREPOSITIONS = frozenset({"in", "on", "at", "to", "for", "with", "from", "by", "of", "into", "about", "under"})
#: Words between a relation and the topic that keep them bound ("the director of X").
LINK_WORDS = frozenset({"of", "with", "by", "as", "the", "a", "an", "for", "in", "from", "to", "s", "than", "about"})
STOP_WORDS = frozenset(
    """which what who whom whose when where how why is are was were be been being do does did done the a an
    of in on at by with for from to as and or that this these those there their its it his her they he she
    them any all some many much have has had also other others than into out about please list give tell me
    name show find also both each every one ones than there s would could should might will shall""".split()
)
#: Nouns that ask for a thing's category ("what *type* of film is X").
CATEGORY_WORDS = "type types kind kinds sort sorts category categories style styles".split()
#: Question words that ask for a verb's agent (a person), and words that ask for a time.
AGENT_WH = frozenset({"who", "whom", "whose", "whos"})  # "whos": "who's" typed without its apostrophe
TIME_WORDS = frozenset({"when", "year", "years", "date", "dates", "day", "month"})
#: Words between a wh-phrase and its verb that leave the verb bound to it ("which method *is* used in X").
AUXILIARIES = frozenset({"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "did", "does", "do"})


@dataclass(frozen=True)
class Mention:
    """A question word that names a predicate (or an entity type), where it stands, and whether it
    asks for entities sharing the predicate's value with the current ones."""

    word: str
    position: int
    predicate: str | None
    type_name: str | None
    share: bool = False
    inferred: bool = False  # no word names the predicate: the schema chose it ("who worked *with* X")


@dataclass(frozen=True)
class ChainPlan:
    """The steps (predicate, +1 forward / -1 backward) from the topic, and the question words the
    chain does not account for."""

    steps: tuple[tuple[str, int], ...]
    mentions: tuple[Mention, ...]
    unexplained: tuple[str, ...] = ()

    def plain_path(self, question: str) -> bool:
        """Whether the chain is a plain path that may pass through the topic again on the way: no
        mention asks for entities sharing a value with it and no word asks for *other* ones."""
        words = set(re.findall(r"[a-z]+", question.lower()))
        if _ALSO_OF_WHOSE.search(question.lower()):
            return False  # "the movies whose directors *also* directed X": movies other than X
        return not any(m.share for m in self.mentions) and not OTHER_WORDS & words


@dataclass
class _Cues:
    texts: list[str]
    owner: list[tuple[str, str]]  # ("p", predicate) or ("t", type) per cue text
    vectors: np.ndarray  # each row scaled by its cue's weight
    stems: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    vocabulary: frozenset[str] = frozenset()  # the words of the labels and type names, types also plural
    #: A type word's plural -> the word ("courses" -> "course": MiniLM puts the two 0.48 apart, nearer a
    #: label such as "alma mater" than each other)
    type_plurals: dict[str, str] = field(default_factory=dict)


class ChainReader:
    """Reads relation chains over one graph's schema (cue vectors embedded once)."""

    def __init__(self, schema: GraphSchema, embedder: Embedder) -> None:
        self.schema, self.embedder = schema, embedder
        self._word_vectors: dict[str, np.ndarray] = {}
        self.cues = self._cues()
        self._tied: dict[str, set[str]] = {}  # a word -> the predicates whose labels hold it alike
        #: The graph types nothing and its subjects are things (kgqa/retrieval/chains/schema.py).
        self.untyped = not schema.types() and any(UNTYPED in schema.subject_types(p) for p in schema.predicates)

    def _spelled(self, word: str) -> str:
        """A plural as the label word it is the plural of, and a word written with a typo as the label or
        type word it stands for ("compnies": companies) where one word of the graph's vocabulary with the
        same first letter and another stem is that near."""
        if word in self.cues.type_plurals:
            return self.cues.type_plurals[word]  # "courses": the type Course
        if word in self.cues.vocabulary or word in STOP_WORDS or not word.isalpha() or word in AGENT_NOUNS:
            return word
        if len(word) < 5:
            slips = [v for v in _RELATION_WORDS if _one_slip(word, v)] if len(word) == 4 else []
            return _one_sense(slips) or word  # "aced": acted, "abut": about, "wrte": write / wrote
        singular = word[:-3] + "y" if word.endswith("ies") else word[:-1] if word.endswith("s") else ""
        if singular in self.cues.vocabulary:
            return singular  # "founders": the label "founder", not "founded"
        # a word of the same stem is another form, not a typo ("published" is no misspelt "publisher")
        near = [
            v for v in self.cues.vocabulary if v[0] == word[0] and same_word(word, v) and not stems(word) & stems(v)
        ]
        if not near and word not in VERB_FORMS:
            # one letter dropped, added or two swapped ("writen": written, "diector": director, "laguages":
            # language), in the graph's own words first, else in the general English words of relations
            forms = {word, singular} - {""}
            near = [v for v in self.cues.vocabulary if len(v) >= 5 and v[0] == word[0] and _slipped(forms, v)]
            near = near or [v for v in _RELATION_WORDS if _slipped(forms, v)]
        return _one_sense(near) or word

    def _cues(self) -> _Cues:
        texts: list[str] = []
        owner: list[tuple[str, str]] = []
        stems: dict[str, set[tuple[str, str]]] = {}

        weights: list[float] = []

        def add(text: str, who: tuple[str, str], weight: float = 1.0) -> None:
            if text and text not in STOP_WORDS:
                texts.append(text)
                owner.append(who)
                weights.append(weight)
                for token in text.split():
                    if len(token) >= STEM_LENGTH - 1 and token not in STOP_WORDS:
                        stems.setdefault(base_form(token)[:STEM_LENGTH], set()).add(who)  # "written": write

        type_owners: dict[str, set[str]] = {}
        subjects = {t for p in self.schema.predicates for t in self.schema.subject_types(p)}
        for p in self.schema.predicates:
            words = label_words(p)
            add(words, ("p", p))
            add(passive_doer(words) or "", ("p", p), PART_WEIGHT)  # "written by": also "writer" ("author of X")
            for role in sorted(object_roles(words)):  # "reports to": also "manager" ("X's manager's manager")
                add(role, ("p", p), PART_WEIGHT)
            for token in words.split():
                if token not in STOP_WORDS and token != words:  # one word of a label says less
                    add(token, ("p", p), PART_WEIGHT)
            for t in self.schema.object_types(p) - {LITERAL}:
                type_owners.setdefault(t, set()).add(p)
        for t in sorted(self.schema.types()):
            add(label_words(t), ("t", t))
            for kind in sorted(kind_words(t) - {label_words(t)} - _OTHER_SENSES):  # "Recipe": also "dish", "meal"
                add(kind, ("t", t))
            owners = type_owners.get(t, set())
            if len(owners) == 1 and t not in subjects:  # a leaf type one predicate leads to names it too
                add(label_words(t), ("p", next(iter(owners))))
        vectors = self.embedder.embed(texts) if texts else np.zeros((0, 1), dtype=np.float32)
        vectors = vectors * np.asarray(weights, dtype=np.float32)[:, None] if texts else vectors
        vocabulary = {w for text in texts for w in text.split() if len(w) >= 4 and w.isalpha()}
        type_words = {w for t in self.schema.types() for w in label_words(t).split() if len(w) >= 4}
        type_plurals = {plural(w): w for w in type_words if plural(w) not in vocabulary}
        vocabulary |= set(type_plurals)
        return _Cues(texts, owner, vectors, stems, frozenset(vocabulary), type_plurals)

    def _untie(self, mentions: list[Mention]) -> list[Mention]:
        """A word that several labels hold alike takes the one its neighbour names ("imdb rating": has imdb
        rating, not has imdb votes)."""
        out = list(mentions)
        for k, m in enumerate(out):
            tied = self._tied.get(m.word, set())
            if m.predicate not in tied:
                continue
            beside = [n.predicate for n in out if abs(n.position - m.position) == 1 and n.predicate in tied]
            if beside and beside[0] != m.predicate:
                out[k] = Mention(m.word, m.position, beside[0], m.type_name, m.share, m.inferred)
        return out

    def _by_preposition(self, word: str, predicate: str | None, after: str) -> str | None:
        """Of the labels of the word's verb that differ only in their preposition ("works in", "works on"),
        the one ending in the preposition the question writes after the word ("who works *on* Apollo")."""
        if predicate is None or after not in _LABEL_PREPOSITIONS:
            return predicate
        own = label_words(predicate).split()
        if own[-1] == after or not share_a_stem(word, " ".join(own)):
            return predicate
        head = own[:-1] if own[-1] in _LABEL_PREPOSITIONS else own
        named = {p for p in self.schema.predicates if label_words(p).split() == [*head, after]}
        return next(iter(named)) if len(named) == 1 else predicate

    def _names_the_things(self, word: str, psim: float, tsim: float) -> bool:
        """Whether a noun that a predicate label only resembles names the subjects of a graph that types
        nothing ("which movies share the director of X": the films, not the cast): no type, a likeness
        under KIND_SIMILARITY and no stem of a label, and no verb form or agent noun ("writers")."""
        return (
            self.untyped
            and MATCH_THRESHOLD <= psim < KIND_SIMILARITY
            and tsim < MATCH_THRESHOLD
            and word not in AGENT_NOUNS
            and not _verb_form(word)
            and not re.search(r"(?:er|or|ist|ess)s?$", word)
        )

    def _vectors(self, words: list[str]) -> np.ndarray:
        missing = [w for w in dict.fromkeys(words) if w not in self._word_vectors]
        if missing:
            for w, v in zip(missing, self.embedder.embed(missing)):
                self._word_vectors[w] = v
        return np.stack([self._word_vectors[w] for w in words]) if words else np.zeros((0, 1), dtype=np.float32)

    def _best(self, word: str, sims: np.ndarray) -> tuple[str | None, float, str | None, float]:
        """The best predicate and type for one word's similarities to every cue (stems count too). A word
        that several labels hold alike ("imdb" of "has imdb rating" and "has imdb votes") is remembered
        with all of them (`_tied`), for its neighbour to choose."""
        best_p: tuple[str | None, float] = (None, 0.0)
        best_t: tuple[str | None, float] = (None, 0.0)
        tied: set[str] = set()
        for (kind, name), sim in zip(self.cues.owner, sims.tolist()):
            if kind == "p" and sim > best_p[1] + TIE:
                best_p, tied = (name, sim), {name}
            elif kind == "p" and sim >= best_p[1] - TIE:
                tied.add(name)
            elif kind == "t" and sim > best_t[1]:
                best_t = (name, sim)
        if len(tied) > 1:
            if len(self._tied) > 10_000:
                self._tied.clear()
            self._tied[word] = tied
        if len(word) >= STEM_LENGTH - 1:  # "wrote" ~ "written by", as "directed" ~ "directed by"
            for kind, name in self.cues.stems.get(base_form(word)[:STEM_LENGTH], ()):
                if kind == "p" and best_p[1] < STEM_SIMILARITY:
                    best_p = (name, STEM_SIMILARITY)
        return best_p[0], best_p[1], best_t[0], best_t[1]

    def mentions(
        self,
        question: str,
        topic_span: tuple[int, int] | None,
        from_value: bool = False,
        values: frozenset[str] = frozenset(),
    ) -> tuple[list[Mention], list[str], int, list[str]]:
        """The question's predicate and type mentions, the words left unexplained, the topic's word
        position and the question's words (the topic's and quoted strings' words are not read, nor the
        words of `values`: labels of entities the question names, "which *dramas* did X direct").
        `from_value`: the topic is a literal (a year, a number)."""
        tokens: list[tuple[str, int]] = []
        topic_at = -1
        for m in re.finditer(r"(?<![A-Za-z])'[^']*'|\"[^\"]*\"|[A-Za-z0-9]+", question):
            if topic_span and m.start() < topic_span[1] and m.end() > topic_span[0]:
                if topic_at < 0:
                    topic_at = len(tokens)
                    tokens.append(("\x00topic", m.start()))
                continue
            if m.group(0)[0] in "'\"":
                continue
            tokens.append((m.group(0).lower(), m.start()))
        if topic_at < 0:
            topic_at = len(tokens)
        words = [self._spelled(w) for w, _ in tokens]
        content = [
            i
            for i, w in enumerate(words)
            if (w not in STOP_WORDS and w not in SHARE_WORDS and w != "\x00topic" and tokens[i][0] not in values)
            or _about_the_topic(words, i, topic_at)
        ]
        asks_agent = bool(AGENT_WH.intersection(words))  # "who ...": a verb asks for its agent
        asks_place = "where" in words and not asks_agent  # "where was X published": the verb's place
        slots: list[list[list[str]]] = []  # per content word: its own text, then its agent noun(s), ...
        for i in content:
            w = words[i]
            phrasal = w in PHRASAL_VERBS and words[i + 1 : i + 2] != [PHRASAL_VERBS[w]]
            if phrasal:
                second = [w]  # "come from" is no "come out"
            elif not asks_agent and w in OBJECT_NOUNS:
                # "what does X make": its products; "which films has X made": their maker, where no label
                # names products
                second = [OBJECT_NOUNS[w], *_agent_texts(w, True)]
            elif asks_place and w in PLACE_NOUNS:
                second = [PLACE_NOUNS[w]]
            else:
                second = _agent_texts(w, asks_agent)
            word_slots = [[w], second]
            if w.startswith("co") and len(w) > 5:
                word_slots += [[w[2:]], [AGENT_NOUNS.get(w[2:], w[2:])]]
            slots.append(word_slots)
        texts = [t for word_slots in slots for slot in word_slots for t in slot]
        if texts and len(self.cues.texts):
            sims = self._vectors(texts) @ self.cues.vectors.T
        else:  # no content words ("what is X about?") or a graph without predicates
            sims = np.zeros((len(texts), len(self.cues.texts)), dtype=np.float32)
        out: list[Mention] = []
        unexplained: list[str] = []
        # the verb names its own predicate where the question asks for a time, or starts from a value
        # ("how many papers were published in 2021": the publication year, not the authors)
        asks_time = (bool(TIME_WORDS.intersection(words)) or from_value) and not asks_agent
        row = 0
        for i, word_slots in zip(content, slots, strict=True):
            w = words[i]
            n = len(word_slots)
            cands = []
            for slot in word_slots:  # a slot of several texts ("who made X": each maker noun) gives its best
                cands.append(max((self._best(t, sims[row + k]) for k, t in enumerate(slot)), key=lambda c: c[1]))
                row += len(slot)
            own = cands[0][0] and cands[0][1] >= MATCH_THRESHOLD
            if own and asks_agent and self._only_literals(cands[0][0] or "") and w in AGENT_NOUNS:
                own = False  # "who founded X": the founder, not the year in a "founded" predicate
            by_agent = self._passive_of(w) if asks_agent and not own else None
            whole: tuple[str | None, float, str | None, float]
            if by_agent is not None:
                whole = (by_agent, STEM_SIMILARITY, None, 0.0)  # "who published X": its "published by"
            elif own and (asks_time or w in label_words(cands[0][0] or "").split()):
                # the verb as the predicate it names itself, not as its agent noun ("who published X":
                # author): where the question asks for a time ("when was X published": publication
                # year) or a predicate label holds the word ("published at")
                whole = cands[0]
            elif asks_agent and w in AGENT_NOUNS and cands[1][0] and cands[1][1] >= MATCH_THRESHOLD:
                whole = cands[1]  # "who starred in X": the cast, not another verb ("directed")
            elif asks_place and w in PLACE_NOUNS and cands[1][0] and cands[1][1] >= MATCH_THRESHOLD:
                whole = cands[1]  # "where was X published": the venue, not the publication year
            else:
                whole = max(cands[:2], key=lambda c: max(c[1], c[3]))
            share = words[i - 1] == "co" if i > 0 else False
            if n == 4:
                part = max(cands[2:], key=lambda c: c[1])
                if part[1] >= MATCH_THRESHOLD and part[1] > whole[1] + 0.1:
                    whole, share = part, True
            pred, psim, typ, tsim = whole
            pred = self._by_preposition(w, pred, words[i + 1] if i + 1 < len(words) else "")
            # "which films has X *made*": a maker the verb may mean, which X's own triples may correct
            loose = not asks_agent and w in OBJECT_NOUNS and whole is cands[1]
            if pred and typ and self._type_and_its_relation(pred, typ, tsim - psim, words[i + 1 : i + 2]):
                out.append(Mention(w, i, None, typ))  # "books written by *authors* from ireland": the type
            elif pred and self._names_the_things(w, psim, tsim):
                out.append(Mention(w, i, None, UNTYPED, share))  # "which movies" where nothing is typed
            elif pred and psim >= MATCH_THRESHOLD and psim >= tsim - 0.02:
                out.append(Mention(w, i, pred, None, share, inferred=loose))
            elif typ and tsim >= MATCH_THRESHOLD + 0.1:
                out.append(Mention(w, i, None, typ))
            else:
                unexplained.append(w)
        out = self._untie(out)
        # "the imdb *rating* of X": where the head noun of "the A B of ..." names nothing, a modifier that
        # is no word of a label ("imdb" only near "starred actors") does not name a relation alone
        out = [
            m
            for m in out
            if not (
                words[m.position + 1 : m.position + 2]
                and words[m.position + 1] in unexplained
                and words[m.position + 2 : m.position + 3] == ["of"]
                and m.word not in label_words(m.predicate or "").split()
            )
        ]
        out = [m for m in out if not _qualifies_a_category(m, words)]
        out = _attach_share_words(out, words)
        return out, unexplained, topic_at, words

    def plan(
        self,
        question: str,
        topic_span: tuple[int, int] | None,
        topic_types: set[str],
        max_hops: int,
        values: frozenset[str] = frozenset(),
        by_preposition: bool = False,
    ) -> ChainPlan | None:
        """The chain from the topic, or None when the question names no predicate or the schema
        cannot follow what it names within `max_hops` steps. The words of `values` name no relation;
        with `by_preposition`, "the films *by* X" joins the type to the topic (`_typed_neighbours`)."""
        mentions, unexplained, topic_at, words = self.mentions(question, topic_span, LITERAL in topic_types, values)
        mentions = _head_nouns([self._shared_type(m, words, topic_types) for m in mentions], words)
        mentions = sorted(
            mentions
            + self._preposition_relations(mentions, words, topic_types)
            + self._worked_with(mentions, words, topic_at, topic_types),
            key=lambda m: m.position,
        )
        relations = _merge_adjacent([m for m in mentions if m.predicate], words)
        # "the films X wrote": a noun of another type than the topic's right before it takes a relative
        # clause, whose verb is a step of its own
        if not any(m.type_name and m.type_name not in topic_types and m.position == topic_at - 1 for m in mentions):
            relations = _drop_restating_verb(relations, words, topic_at, lambda p: self._direction(p, topic_types) != 0)
        relations = _drop_verb_of_share(relations)
        if _joined(relations, words):
            return None  # "the films X wrote and directed": both relations of the same films, not a chain
        if not relations and "when" in words and (dated := time_literal(self.schema, set(topic_types))):
            return ChainPlan(((dated, 1),), tuple(mentions), tuple(unexplained))  # "when was X released": its year
        if not relations:
            return self._typed_neighbours(mentions, unexplained, topic_types, words, topic_at, by_preposition)
        merged = sorted(relations + [m for m in mentions if m.type_name], key=lambda m: m.position)
        before = [m for m in merged if m.position < topic_at]
        after = [m for m in merged if m.position > topic_at]
        order: list[Mention] = []
        # "X's films": the noun after a possessive is X's own relation, not a word before X ("who directed
        # *X's film*": the film's director, not the films X directed)
        possessive = words[topic_at + 1 : topic_at + 2] == ["s"] and any(m.position == topic_at + 2 for m in after)
        if before and not possessive and all(w in LINK_WORDS for w in words[before[-1].position + 1 : topic_at]):
            order.append(before.pop())
        if _asks_after(words, topic_at):
            # "the films that share actors with X *were released in which years*": the words before the
            # topic say which entities, the clause after it asks what of them
            order += before[::-1] + after
        else:
            order += after + before[::-1]
        steps: list[tuple[str, int]] = []
        types = set(topic_types)
        bridged = False  # the last step was inferred (it leads to the next mention)
        passed: set[str] = set()  # types the chain has reached (a type word on the way is one of them)
        taken: Mention | None = None  # a relation the step to a type word was already made along
        asked = _asked_type(mentions, words)
        for k, m in enumerate(order):
            if m.predicate is None:  # a type word on the way ("the *films* written by ..."): reach it
                if abs(m.position - topic_at) == 1 and m.type_name in topic_types:
                    continue  # "the finance *department*": the topic's own type, no step
                if m.type_name and m.type_name not in types and m.type_name not in passed:
                    ahead = next((n for n in order[k + 1 :] if n.predicate), None)
                    if possessive and m.position == topic_at + 2:
                        ahead = None  # "who directed X's film": X's films by what X has, then their director
                    if ahead and _of_the_topic(ahead, m, words, topic_at):
                        ahead = None  # "who *acted* in the movies of X": the verb is the step after the movies
                    back = bool(steps) and bool(self.schema.step(steps[-1][0], -steps[-1][1], types) & {m.type_name})
                    bridge = self._bridge(types, {m.type_name}, steps, ahead.predicate if ahead else None)
                    if bridge is not None:
                        steps.append(bridge)
                        types, bridged = self.schema.step(*bridge, types), True
                        passed |= types
                        if ahead and not ahead.share and not back and bridge[0] == ahead.predicate:
                            taken = ahead  # "the movies X acted in": "acted" is the step to the movies
                continue
            if m is taken:
                continue
            if steps and self._at_the_wh_noun(m, words, types):
                continue  # "which *artists* come from the same city as X": the chain is at the artists already
            if steps and not m.share and steps[-1][0] == m.predicate and types <= {LITERAL}:
                continue  # "release date" after "released": the same literal asked twice
            direction = self._direction(m.predicate, types)
            if not steps and direction != 0 and self.both_ways(m.predicate, types):
                direction = _voiced(m, words, topic_at) or direction  # "who cites X": X is cited
            if direction == 0:
                goal = self.schema.subject_types(m.predicate) | self.schema.object_types(m.predicate)
                bridge = self._bridge(types, goal, steps, None)
                if bridge is None:
                    return None
                steps.append(bridge)
                types = self.schema.step(*bridge, types)
                passed |= types
                if self._at_the_wh_noun(m, words, types):
                    continue  # "which *artists* are from Austin": the step there reached them
                last = not any(n.predicate for n in order[k + 1 :])
                if last and asked and asked in types and not m.share:
                    continue  # "what albums has X released" (albums released on a label): at the albums
                direction = self._direction(m.predicate, types)
                if direction == 0:
                    return None
            elif (
                m.share
                and not (bridged and steps[-1][0] == m.predicate)
                and not self._co_of_the_holder(m, words, types)
            ):
                # entities sharing the value: out to it and back ("films that share a director")
                steps.append((m.predicate, direction))
                types = self.schema.step(m.predicate, direction, types)
                passed |= types
                direction = -direction
                if not self.schema.step(m.predicate, direction, types):
                    return None
            steps.append((m.predicate, direction))
            types, bridged = self.schema.step(m.predicate, direction, types), False
            passed |= types
        answer_type = _asked_type(mentions, words)
        if answer_type and answer_type not in types:
            bridge = self._bridge(types, {answer_type}, steps, None)
            if bridge is not None:
                steps.append(bridge)
        if "when" in words and steps and not valued(self._reached(steps, topic_types)):
            dated = time_literal(self.schema, self._reached(steps, topic_types))
            if dated is not None:  # "when did X direct her first film": the film's year
                steps.append((dated, 1))
        if not steps or len(steps) > max_hops:
            return None
        if "when" in words and not valued(self._reached(steps, topic_types)):
            return None  # "when did X come out": a date or year, never an entity ("comes from")
        return ChainPlan(tuple(steps), tuple(mentions), tuple(unexplained))

    def bare(
        self, question: str, topic_span: tuple[int, int] | None, topic_types: set[str], values: frozenset[str]
    ) -> ChainPlan | None:
        """ "list all westerns", "how many comedies are there", "which comedies are in korean": a question
        that names nothing but its topic (and `values`) asks for what the topic is a value of, one step
        along the predicate with most triples from the topic's types into entities; None otherwise."""
        mentions, unexplained, _, _ = self.mentions(question, topic_span, LITERAL in topic_types, values)
        if mentions or unexplained:
            return None
        step = self._heaviest(topic_types, None)
        return ChainPlan((step,), (), ()) if step else None

    def _preposition_relations(self, mentions: list[Mention], words: list[str], topic_types: set[str]) -> list[Mention]:
        """ "where is X *from*", "which artists are *from* Austin", "which albums are *on* Kestrel": a
        preposition that ends a predicate's label ("comes from", "released on") names that predicate
        where no other word names a relation ("from" also where it closes the question: "what languages
        are the films X starred *in*" asks no "acted in"); the predicate touches the topic's types (the
        one with most such triples), or for a closing "from" any type a later step reaches."""
        # a wh-phrase's noun names a relation where it leaves the topic ("what *industry* is X in"), not
        # where it only names the type asked ("which *artists* are from Austin")
        has_relation = any(
            m.predicate
            and (not _wh_noun(m, words) or any(self._weight_from(m.predicate, d, topic_types) for d in (1, -1)))
            for m in mentions
        )
        named = {m.predicate for m in mentions if m.predicate}
        asked = _asked_type(mentions, words) or next(
            (t for m in mentions if m.predicate and _wh_noun(m, words) for t in self.schema.object_types(m.predicate)),
            None,
        )
        out: list[Mention] = []
        for i, w in enumerate(words):
            stranded = i == len(words) - 1 and w == "from"  # "where is the artist of X from": a later step's
            if w not in PREPOSITIONS or (has_relation and not stranded):
                continue  # a closing "in" or "on" is too often the particle of a verb or noun before it
            best: tuple[tuple[int, int, int, int], str] | None = None
            for p in self.schema.predicates:
                said = label_words(p).split()
                # "comes from"; "from country" (not "in language" for "who was *in* X": the cast)
                exact = said[-1:] == [w] or (w == "from" and len(said) > 1 and said[0] == w)
                # "is X *from* Lyon" where no label holds "from": a label of origin ("born in"), a place
                # (not a year: "born: 1959")
                origin = w == "from" and bool(ORIGIN_WORDS.intersection(said)) and not self._only_literals(p)
                if not exact and not origin:
                    continue
                weight = max(self._weight_from(p, d, topic_types) for d in (1, -1))
                # one that leads from the topic straight to the type asked comes first ("which companies
                # are based *in* Lagos": headquartered in, not the people born in it)
                reach = any(asked in self.schema.step(p, d, topic_types) for d in (1, -1)) if asked else False
                rank = (
                    (1, int(reach), int(exact), weight)
                    if weight
                    else (0, 0, int(exact), self._weight_from(p, 1, self.schema.subject_types(p)))
                )
                if (weight or stranded) and (best is None or rank > best[0]):
                    best = (rank, p)
            if best and best[1] not in named:  # "released albums *on*": the verb's own particle
                out.append(Mention(w, i, best[1], None))
        return out

    def _worked_with(
        self, mentions: list[Mention], words: list[str], topic_at: int, topic_types: set[str]
    ) -> list[Mention]:
        """ "who collaborated *with* X", "who worked with X": a verb that names no predicate, then "with"
        and the topic, asks for those who share with X what X has most of (the predicate with most
        triples from the topic's types to entities); "who's *in* X" asks for those X has most of."""
        if any(m.predicate and not _wh_noun(m, words) for m in mentions):
            return []
        # "which *actors* worked with X": those who share with X what the wh-phrase's noun names
        role = next((m for m in mentions if m.predicate and _wh_noun(m, words) and m.position == 1), None)
        if words[0] not in AGENT_WH and (words[0] not in WH_WORDS or role is None):
            return []
        before = words[topic_at - 1] if topic_at >= 2 else ""
        if before == "in" and all(w in STOP_WORDS or w in AGENT_WH for w in words[1 : topic_at - 1]):
            # "who's in X", "who is in X": those X has most of, no sharing
            heaviest = self._heaviest(topic_types, None)
            return [Mention("in", topic_at - 1, heaviest[0], None, inferred=True)] if heaviest else []
        closing = words[-1] == "with" and topic_at < len(words) - 1  # "who did X collaborate with"
        if not (closing or before == "with"):
            return []
        at = len(words) - 1 if closing else topic_at - 1
        if role is not None and role.predicate:
            verb = words[at - 1] if at >= 1 else ""
            if self._only_literals(role.predicate) or not _verb_form(verb):
                return []  # "what year did *recovery with* X come out": no one worked with X
            return [Mention("with", at, role.predicate, None, True, inferred=True)]
        heaviest = self._heaviest(topic_types, None)
        return [Mention("with", at, heaviest[0], None, True, inferred=True)] if heaviest else []

    def _typed_neighbours(
        self,
        mentions: list[Mention],
        unexplained: list[str],
        topic_types: set[str],
        words: list[str],
        topic_at: int,
        by_preposition: bool = False,
    ) -> ChainPlan | None:
        """ "iron tides albums", "albums iron tides", "iron tides' albums": the topic written beside a
        type and nothing else asks for the entities of that type next to the topic (the predicate with
        most such triples). With a word between them ("albums *by* X") the question's own reading stays,
        unless the type is the one asked and one predicate alone joins it to the topic's ("which drugs
        can *cause* headache")."""
        kinds = {m.type_name for m in mentions if m.type_name} - topic_types
        if len(kinds) != 1 or any(m.predicate for m in mentions):
            return None
        at = next(m.position for m in mentions if m.type_name in kinds)
        between = words[min(at, topic_at) + 1 : max(at, topic_at)]
        asked = _asked_type(mentions, words) in kinds
        # "the latest film *by* X", "movies *with* X": a bare preposition before the topic joins the two too
        joins = {"s"} | ({"by", "with", "from", "the"} if at < topic_at and by_preposition else set())
        if at < topic_at and between in (["of"], ["of", "the"]):
            joins.add("of")  # "the chef of X": X's chef
        # "what movies was X in", "which films has X been in": X is in them along what X has most of
        rest = words[topic_at + 1 :]
        closing_in = at < topic_at and rest[-1:] == ["in"] and set(between + rest[:-1]) <= AUXILIARIES | {"been"}
        if (
            (unexplained or any(w not in joins for w in between))
            and not closing_in
            and not (asked and self._one_predicate(topic_types, kinds))
        ):
            return None  # "which drugs can *cause* headache": one predicate joins the two, whatever the verb
        bridge = self._bridge(topic_types, kinds, [], None)
        return ChainPlan((bridge,), tuple(mentions), ()) if bridge else None

    def _at_the_wh_noun(self, m: Mention, words: list[str], types: set[str]) -> bool:
        """Whether `m` is the wh-phrase's noun and the chain already stands where its predicate leads."""
        return _wh_noun(m, words) and types <= self.schema.object_types(m.predicate or "")

    def _one_predicate(self, start: set[str], goal: set[str]) -> bool:
        """Whether exactly one predicate joins the `start` types to the `goal` types (either direction)."""
        joining = {p for p in self.schema.predicates for d in (1, -1) if self.schema.weight(p, d, start, goal)}
        return len(joining) == 1

    def _type_and_its_relation(self, predicate: str, type_name: str, lead: float, after: list[str]) -> bool:
        """Whether a word names a type and, as well, a relation called by that type's name that leads to it
        (a rel read backwards into a hub, named after its source table: "author" to Author), and a clause
        about it follows ("books written by *authors from* ireland"): the type; not before a verb or "of"
        ("which *venue published* X", "the *author of* X" ask for the relation)."""
        return (
            lead >= -TIE
            and after[:1] in (["from"], ["in"], ["at"], ["with"], ["who"], ["that"], ["born"], ["based"])
            and label_words(predicate) == label_words(type_name)
            and type_name in self.schema.object_types(predicate)
        )

    def _passive_of(self, word: str) -> str | None:
        """The one predicate labelled with `word` and "by" ("published by" for "published"): what "who
        <word> X" asks for where `word` alone labels only a literal (a year)."""
        held = [p for p in self.schema.predicates if f" {word} by " in f" {label_words(p)} "]
        return held[0] if len(held) == 1 else None

    def _only_literals(self, predicate: str) -> bool:
        """Whether every value of the predicate is a literal (a year, a number, a text)."""
        objects = self.schema.object_types(predicate)
        return bool(objects) and objects <= {LITERAL}

    def bridges(self, types: set[str], step: tuple[str, int]) -> list[tuple[str, int]]:
        """The steps that lead from `types` where `step` leads, most triples first: what a plan could
        have taken in its place ("ada whitcombe's movies": cast member, director or screenwriter)."""
        goal = self.schema.step(*step, types)
        weighted = [
            (self.schema.weight(p, d, types, goal), p, d)
            for p in self.schema.predicates
            for d in (1, -1)
            if self.schema.step(p, d, types) & goal
        ]
        return [(p, d) for w, p, d in sorted(weighted, key=lambda x: (-x[0], x[1], x[2])) if w]

    def _heaviest(self, start: set[str], goal: set[str] | None) -> tuple[str, int] | None:
        """The step (predicate, direction) with most triples from the `start` types to the `goal` types
        (None: to any entity, never a literal)."""
        best: tuple[int, str, int] | None = None
        for p in self.schema.predicates:
            for d in (1, -1):
                ends = goal if goal is not None else self._ends(p, d) - {LITERAL}
                w = self.schema.weight(p, d, start, ends) if ends else 0
                if w and (best is None or w > best[0]):
                    best = (w, p, d)
        return (best[1], best[2]) if best else None

    def _ends(self, predicate: str, direction: int) -> set[str]:
        """The types a step along `predicate` in `direction` arrives at."""
        return self.schema.object_types(predicate) if direction > 0 else self.schema.subject_types(predicate)

    def _weight_from(self, predicate: str, direction: int, types: set[str]) -> int:
        """How many triples of `predicate` leave the `types` in `direction`."""
        return self.schema.weight(predicate, direction, types, self._ends(predicate, direction))

    def _co_of_the_holder(self, m: Mention, words: list[str], types: set[str]) -> bool:
        """ "the co-founders of *a company*", "the co-authors of *a paper*": where the chain is at what
        holds the relation (its subject, never its value), "co-" asks for all of them, not for a sharing."""
        co = (m.position > 0 and words[m.position - 1] == "co") or (m.word.startswith("co") and len(m.word) > 5)
        if not (m.share and m.predicate and co):
            return False
        # "wrote" (not "written by"): its subject is the writer, so "the co-writers of A" share A's films
        if verbal_label(m.predicate) and label_words(m.predicate).split()[-1] != "by":
            return False
        subjects, objects = self.schema.subject_types(m.predicate), self.schema.object_types(m.predicate)
        return types <= subjects and not types & objects

    def _shared_type(self, m: Mention, words: list[str], topic_types: set[str]) -> Mention:
        """ "the same *city* as X", "share a *project* with X": a type named after a share word is the value
        shared, reached from the topic along the predicate with most such triples (a relation, shared),
        where one leads there."""
        before = words[max(0, m.position - 2) : m.position]
        shared = before[-1:] and (before[-1] in SAME_WORDS or before[-1] in _SHARE_VERBS)
        shared = shared or (len(before) == 2 and before[0] in _SHARE_VERBS and before[1] in ("a", "an", "any"))
        if not m.type_name or not shared:
            return m
        heaviest = self._heaviest(topic_types, {m.type_name})
        return Mention(m.word, m.position, heaviest[0], None, True) if heaviest else m

    def _reached(self, steps: list[tuple[str, int]], types: set[str]) -> set[str]:
        """The types the steps reach from `types`."""
        for predicate, direction in steps:
            types = self.schema.step(predicate, direction, types)
        return types

    def _direction(self, predicate: str, types: set[str]) -> int:
        """+1 or -1: the direction the schema lets `predicate` go from `types` (the one with more triples
        when both do), or 0."""
        fwd, bwd = self._weights(predicate, types)
        if not fwd and not bwd:
            return 0
        return 1 if fwd >= bwd else -1

    def both_ways(self, predicate: str, types: set[str]) -> bool:
        """Whether `predicate` links entities of `types` to entities of their own kind, both ways ("cites"
        between papers, "subfield of" between fields)."""
        fwd, bwd = self._weights(predicate, types)
        return bool(fwd and bwd)

    def _weights(self, predicate: str, types: set[str]) -> tuple[int, int]:
        """The triples `predicate` has from `types` forward and backward (to any of its ends' types)."""
        fwd = self.schema.weight(predicate, 1, types, self.schema.object_types(predicate))
        bwd = self.schema.weight(predicate, -1, types, self.schema.subject_types(predicate))
        return fwd, bwd

    def _bridge(
        self, types: set[str], goal: set[str], steps: list[tuple[str, int]], ahead: str | None
    ) -> tuple[str, int] | None:
        """One step from `types` to `goal`: back along the last step's predicate when it leads there,
        else along the predicate named next (`ahead`), else the predicate with most such triples."""
        if steps:
            p, d = steps[-1]
            if self.schema.step(p, -d, types) & goal:
                return (p, -d)
        if ahead:
            for d in (1, -1):
                if self.schema.step(ahead, d, types) & goal:
                    return (ahead, d)
        return self._heaviest(types, goal)


#: General English words of relations a slip may stand for: the verbs and agent nouns of `AGENT_NOUNS`,
#: "about" and the share words (long enough to tell from other words).
_RELATION_WORDS = frozenset(
    w
    for w in {*AGENT_NOUNS, *(n for nouns in AGENT_NOUNS.values() for n in nouns.split()), "about", *SHARE_WORDS}
    if len(w) >= 5
)


def _of_the_topic(verb: Mention, noun: Mention, words: list[str], topic_at: int) -> bool:
    """ "who *acted* in the *movies* of X", "who acted in films *with* X": a verb before a type noun that
    only "of" / "by" / "with" joins to the topic (the topic's own movies, then the verb's step), not "who
    wrote movies *together with* X"."""
    between = words[noun.position + 1 : topic_at]
    return verb.position < noun.position < topic_at and bool(between) and set(between) <= {"of", "by", "with"}


def _slipped(forms: set[str], target: str) -> bool:
    return any(_one_slip(f, target) for f in forms)


def _one_sense(words: list[str]) -> str | None:
    """The one word of `words`, or the first where all name the same relation ("write", "wrote"; "genre",
    "genres")."""
    if len(words) == 1:
        return words[0]
    senses = {AGENT_NOUNS.get(w, w).removesuffix("s") for w in words}  # "genre" and "genres" are one
    return sorted(words)[0] if words and len(senses) == 1 else None


def _one_slip(a: str, b: str) -> bool:
    """Whether `a` is `b` with one letter missing, added or two neighbours swapped ("writen", "wirtten")."""
    if abs(len(a) - len(b)) == 1:
        short, long = (a, b) if len(a) < len(b) else (b, a)
        return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    return False


def _voiced(m: Mention, words: list[str], topic_at: int) -> int:
    """The direction a verb gives a predicate that goes both ways. Right after the question's subject:
    "who *cites* X", "which papers *cite* X" (X the object: -1), "which papers are *cited by* X" (X the
    subject: +1, also after another word: "which papers are *cited by* X"). After the topic, active: "which
    papers did X *cite*" (X the subject: +1). A label in the passive ("written by") turns each round: "who
    *wrote* X" is X written by someone (+1), "which books did X *write*" and "which books are *written by*
    X" the books written by X (-1). 0 where the words say nothing of it."""
    at = m.position - len(m.word.split()) + 1
    lead = words[at - 1] if at >= 1 else ""
    before = words[at - 2] if at >= 2 else ""
    # "how many people *report to* X" asks of the subjects as "who reports to X" does
    counted = lead == "many" or words[max(0, at - 3) : at - 1] == ["how", "many"]
    # "which *rust* packages depend on X": a word or two describing the subject between the wh-word and it
    described = words[max(0, at - 4) : at - 1]
    opened = any(w in WH_WORDS for w in described) and not any(w in AUXILIARIES for w in described)
    subject = lead in AGENT_WH or lead in WH_WORDS or lead == "that" or before in WH_WORDS or counted or opened
    passive = words[m.position + 1 : m.position + 2] == ["by"]
    if subject and m.position < topic_at:
        direction = 1 if passive else -1
    elif passive and m.position < topic_at:
        direction = 1  # "which papers are cited by X": X cites them
    elif m.position > topic_at and not passive and words[topic_at - 1 : topic_at] in (["did"], ["does"], ["do"]):
        direction = 1  # "which papers did X cite", "what did X write"
    else:
        return 0
    label = label_words(m.predicate or "").split()
    return -direction if label[-1:] == ["by"] and len(label) > 1 else direction


def _drop_restating_verb(
    relations: list[Mention], words: list[str], topic_at: int, of_topic: Callable[[str], bool]
) -> list[Mention]:
    """A verb that only restates the relation its wh-phrase names, closing the question after the topic
    ("in which *venue* was X *published*") or right after the wh-phrase before the topic ("what *venue*
    *published* X", "which *evaluation method* is *used* in X"): read it as no step (where the question
    asks no agent, "who"). A closing verb stays where the topic has no such relation itself (`of_topic`:
    "what *genres* did X *direct*", X a person: the genres of the films X directed)."""
    if len(relations) < 2 or AGENT_WH.intersection(words):
        return relations
    asked = next((m for m in relations if _after_wh(m, words)), None)
    if asked is None:
        return relations
    last = relations[-1]
    if (
        asked is not last
        and last.position >= topic_at
        and last.word in AGENT_NOUNS
        and (asked.predicate is None or of_topic(asked.predicate))
    ):
        return relations[:-1]
    verb = next((m for m in relations if m.position > asked.position), None)
    if (
        verb is not None
        and verb.position < topic_at
        and verb.predicate != asked.predicate
        and _verb_form(verb.word)
        and all(w in AUXILIARIES for w in words[asked.position + 1 : verb.position])
    ):
        return [m for m in relations if m is not verb]
    return relations


def _asks_after(words: list[str], topic_at: int) -> bool:
    """Whether the question word stands only after the topic, behind a noun phrase that holds it ("the
    movies written by X *were in which genres*", "films directed by X starred *who*")."""
    asking = WH_WORDS | AGENT_WH | {"when", "where", "how"}
    return (
        0 < topic_at < len(words) - 1
        and not asking.intersection(words[:topic_at])
        and words[0] not in AUXILIARIES
        and bool(asking.intersection(words[topic_at + 1 :]))
    )


def _agent_texts(word: str, asks_agent: bool) -> list[str]:
    """What a word is compared with beside itself: its agent nouns as one text, and where the question asks
    "who", each of them too ("made": creator, director, author, ... one of which a label may be)."""
    singular = word[:-1] if word.endswith("s") else word
    agents = AGENT_NOUNS.get(word) or AGENT_NOUNS.get(singular, word)  # "screenwriters": writer, author
    nouns = agents.split()
    return [agents, *nouns] if asks_agent and len(nouns) > 1 else [agents]


def _head_nouns(mentions: list[Mention], words: list[str]) -> list[Mention]:
    """In a wh-phrase of two nouns ("which *record label*", "what *film genre*") the last is the one
    asked; the word before it only qualifies it (unless both name one predicate: "release year"). A
    verb after the noun ("what *venue* published X") is no second noun."""
    at = {m.position: m for m in mentions}
    return [
        m
        for m in mentions
        if not (
            _wh_noun(m, words)
            and m.position + 1 in at
            and at[m.position + 1].predicate != m.predicate
            and words[m.position + 1] not in LINK_WORDS
            and not _verb_form(words[m.position + 1])
        )
    ]


def _after_wh(m: Mention, words: list[str]) -> bool:
    """Whether the mention (of one word, or of adjacent words merged: "evaluation method") follows a
    question word ("*which* evaluation method")."""
    first = m.position - len(m.word.split()) + 1
    return _wh_noun(m, words) or (first >= 1 and words[first - 1] in WH_WORDS)


def _verb_form(word: str) -> bool:
    """Whether the word reads as a verb: one with agent or object nouns ("published", "makes"), or a
    past form ("directed")."""
    return word in AGENT_NOUNS or word in OBJECT_NOUNS or word.endswith("ed")


def _wh_noun(m: Mention, words: list[str]) -> bool:
    """Whether the mention is the noun of the question's wh-phrase ("*which artists* ...", "*how many
    movies* ...")."""
    return m.position >= 1 and _asks_at(words, m.position - 1)


def _asks_at(words: list[str], k: int) -> bool:
    """Whether `words[k]` ends a wh-phrase's determiner: "which", "what", or the "many" of "how many"."""
    return words[k] in WH_WORDS or (words[k] == "many" and k >= 1 and words[k - 1] == "how")


def _drop_verb_of_share(relations: list[Mention]) -> list[Mention]:
    """A verb shortly before a shared value of its own predicate says that sharing once ("come from the
    *same city*", "starred in the *same films*", "works in the *same department*", where both read as
    shared): one step out and back, not a step more."""
    shares = [m for m in relations if m.share]
    return [
        m for m in relations if not any(s.predicate == m.predicate and 0 < s.position - m.position <= 5 for s in shares)
    ]


def _qualifies_a_category(m: Mention, words: list[str]) -> bool:
    """A type named after "type of" / "kind of" says what the topic is, not what is asked ("what type
    of *film* is X": the genre of X, not other films)."""
    p = m.position
    return m.type_name is not None and p >= 2 and words[p - 1] == "of" and words[p - 2] in CATEGORY_WORDS


def _about_the_topic(words: list[str], i: int, topic_at: int) -> bool:
    """ "about" right beside the topic asks what it is about ("what is X about", "films about X")."""
    return words[i] == "about" and abs(i - topic_at) == 1


def _asked_type(mentions: list[Mention], words: list[str]) -> str | None:
    """The entity type the question asks for: a type word right after "which", "what" or "how many"
    ("which films", "what other movies", "how many movies") or, in a yes/no question, after "any" / "a"
    ("has X founded *any companies*?"), else None."""
    yes_no = bool(words) and words[0] in AUXILIARIES
    for m in mentions:
        if m.type_name is None:
            continue
        k = m.position - 1
        while k >= 0 and words[k] in ("other", "kind", "kinds", "of", "type", "types"):
            k -= 1
        if k >= 0 and (_asks_at(words, k) or (yes_no and words[k] in ("any", "a", "an"))):
            return m.type_name
    return None


def _attach_share_words(mentions: list[Mention], words: list[str]) -> list[Mention]:
    """Give each share word ("share", "same", "together", "co") to the nearest relation mention."""
    relations = [k for k, m in enumerate(mentions) if m.predicate]
    if not relations:
        return mentions
    out = list(mentions)
    by_position = {m.position: k for k, m in enumerate(mentions) if m.predicate}
    for i, w in enumerate(words):
        if w == "with" and words[0] in AGENT_WH and i - 1 in by_position and words[i + 1 : i + 2] == ["\x00topic"]:
            # "who acted with X": the people who share the verb's films with X, not X's films
            k = by_position[i - 1]
            out[k] = Mention(out[k].word, out[k].position, out[k].predicate, out[k].type_name, True)
            continue
        if w not in SHARE_WORDS:
            continue
        k = min(relations, key=lambda k: (abs(mentions[k].position - i), mentions[k].position < i))
        m = out[k]
        out[k] = Mention(m.word, m.position, m.predicate, m.type_name, True)
    return out


def _merge_adjacent(mentions: list[Mention], words: list[str]) -> list[Mention]:
    """Adjacent words naming the same predicate ("release date", "stars which actors", "written by the
    authors") are one mention (not where one asks for sharing: "co-stars with the stars of X")."""
    out: list[Mention] = []
    for m in mentions:
        between = words[out[-1].position + 1 : m.position] if out else []
        repeated = bool(out) and out[-1].word == m.word and "of" in between  # "the dependencies of the dependencies"
        if (
            out
            and out[-1].predicate == m.predicate
            and not repeated
            and (
                all(w in WH_WORDS for w in between)
                or (all(w in LINK_WORDS for w in between) and not (out[-1].share or m.share))
            )
        ):
            prev = out[-1]
            # where the mention stands: its last word, beside what follows ("written by the authors of X"),
            # except across a question word ("stars which actors")
            at = prev.position if between and all(w in WH_WORDS for w in between) else m.position
            out[-1] = Mention(prev.word + " " + m.word, at, prev.predicate, None, prev.share or m.share)
            continue
        if out and out[-1].predicate and not between and _agent_of(out[-1].word, m.word):
            # "directors made": the verb whose agent the noun before it is says that noun's relation again
            out[-1] = Mention(out[-1].word + " " + m.word, m.position, out[-1].predicate, None, out[-1].share)
            continue
        out.append(m)
    return out


#: Words that may stand between two relations joined by "and" ("acted in and directed", "wrote and also directed").
_JOINING = frozenset({"and", "also", "in", "on", "as", "well", "both"})


def _joined(relations: list[Mention], words: list[str]) -> bool:
    """Whether two relations of the question are joined by "and" ("the films X wrote and directed"): the
    question asks for what holds both, which no chain of steps reads."""
    for a, b in zip(relations, relations[1:]):
        between = words[a.position + 1 : b.position]
        if a.predicate != b.predicate and "and" in between and all(w in _JOINING for w in between):
            return not (a.share or b.share)
    return False


def _agent_of(noun: str, verb: str) -> bool:
    """Whether `noun` ("directors") is one of the agent nouns of `verb` ("made": creator, director, author)."""
    agents = AGENT_NOUNS.get(verb, "").split()
    return noun != verb and (noun in agents or noun.rstrip("s") in agents)


__all__ = ["ChainPlan", "ChainReader", "Mention", "label_words"]
