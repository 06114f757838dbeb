"""The offline fact extractor: sentence-level subject–verb–object patterns over capitalised entity spans.

Per sentence:
1. Mentions: quoted strings, dates ("12 March 2003", "March 2003"), years and numbers (literals), and
   capitalised spans that may contain the connectors of/for/the/and/de/van/von ("Bank of England").
   A sentence that starts with He/She/It/They/His/Her/Its/Their refers to the previous sentence's subject.
2. Facts: the first mention (or the resolved pronoun) is the subject; the lower-case words up to the next
   mention form the predicate when they are a short verb phrase (at most six words, with a verb, without
   a comma or a relative pronoun) -> (subject, predicate, next mention). "X is a/an <noun phrase>" gives
   (X, is a, noun phrase). "..., and <verb phrase> <mention>" adds another fact with the same subject.
3. Qualifiers: mentions after the object introduced by in/on/at/during/since/from/until/by/before/after
   ("... created Family Guy in 1999") qualify the fact: it is stored as a triple hypernode as well.

It is deliberately simple and precise rather than complete: sentences without such a pattern yield
nothing (the LLM extractor covers free text)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgqa.question.components import STOP_WORDS, VERB_FORMS
from kgqa.textkg.passages import Passage

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_MENTION = re.compile(
    r"(?P<quoted>[\"“]([^\"”]{2,})[\"”])"
    rf"|(?P<date>\b(?:\d{{1,2}}\s+(?:{_MONTHS})\s+\d{{4}}|(?:{_MONTHS})\s+\d{{1,2}},\s*\d{{4}}|(?:{_MONTHS})\s+\d{{4}})\b)"
    r"|(?P<number>\b\d+(?:[.,]\d+)*\b)"
    r"|(?P<name>[A-Z][\w'’&-]*\.?(?:\s+(?:(?:of|for|the|and|de|van|von|der|du|la|le)\s+)*(?:[A-Z][\w'’&-]*\.?|\d+\b))*)"
)
_CONNECTORS = frozenset({"of", "for", "the", "and", "de", "van", "von", "der", "du", "la", "le"})
_PRONOUNS = frozenset({"he", "she", "it", "they", "his", "her", "its", "their"})
_QUALIFIER_PREPS = frozenset({"in", "on", "at", "during", "since", "from", "until", "by", "before", "after"})
_AUXILIARIES = frozenset(
    {
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "became",
        "becomes",
        "won",
        "wrote",
        "made",
        "led",
        "founded",
        "built",
        "joined",
        "left",
        "met",
        "took",
        "gave",
        "began",
        "grew",
        "ran",
        "sold",
        "bought",
        "taught",
        "held",
        "chose",
    }
)
_CLAUSE = frozenset({"which", "who", "whom", "whose", "that", "where", "when", "while", "because", "although"})
_ARTICLES = frozenset({"a", "an", "the"})
_LEADING_DROP = frozenset({"the", "a", "an", "in", "on", "at", "this", "that", "these", "those"})
MAX_PREDICATE_WORDS = 6


@dataclass(frozen=True)
class Term:
    """A subject, object or qualifier value: its text, and whether it is a literal value."""

    text: str
    literal: bool = False


@dataclass(frozen=True)
class Fact:
    """An extracted triple with its qualifiers and the passage that states it."""

    subject: Term
    predicate: str
    object: Term
    passage: Passage
    qualifiers: tuple[tuple[str, Term], ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class _Mention:
    term: Term
    start: int
    end: int


class RuleExtractor:
    """The documented offline extractor (no LLM, deterministic)."""

    name = "rules"

    def extract(self, passages: list[Passage]) -> list[Fact]:
        """Facts of every passage, in order; a pronoun subject refers to the previous sentence's."""
        facts: list[Fact] = []
        previous: Term | None = None
        for p in passages:
            found, previous = self._sentence(p, previous)
            facts += found
        return facts

    def _sentence(self, p: Passage, previous: Term | None) -> tuple[list[Fact], Term | None]:
        text = p.text
        mentions = _mentions(text)
        first_word = re.match(r"\s*([A-Za-z]+)", text)
        subject: _Mention | None = None
        if first_word and first_word.group(1).lower() in _PRONOUNS and previous is not None:
            subject = _Mention(previous, first_word.start(1), first_word.end(1))
        elif mentions and not re.sub(r"(?i)\b(?:the|a|an)\b", "", text[: mentions[0].start]).strip(" \"'“("):
            subject, mentions = mentions[0], mentions[1:]
        if subject is None:
            return [], previous
        facts: list[Fact] = []
        pos, pending = subject.end, None
        for m in mentions:
            words = re.findall(r"[A-Za-z'’-]+|[,;:()]", text[pos : m.start])
            pos = m.end
            if (
                pending is not None
                and 1 <= len(words) <= 2
                and words[0].lower() in _QUALIFIER_PREPS
                and words[-1].isalpha()
            ):
                pending = _qualify(pending, words[0].lower(), m.term)
                continue
            if pending is not None:
                facts.append(pending)
                pending = None
            while words and words[0].lower() in (",", "and"):
                words = words[1:]
            if _is_predicate(words):
                pending = Fact(subject.term, _predicate(words), m.term, p)
        if pending is not None:
            facts.append(pending)
        if not facts:
            noun = _copula(text[subject.end :])
            if noun:
                facts.append(Fact(subject.term, "is a", Term(noun), p))
        return facts, subject.term


def _mentions(text: str) -> list[_Mention]:
    out = []
    for m in _MENTION.finditer(text):
        if m.group("quoted"):
            out.append(_Mention(Term(m.group(2).strip()), m.start(), m.end()))
        elif m.group("date") or m.group("number"):
            out.append(_Mention(Term(m.group(0), True), m.start(), m.end()))
        else:
            words = m.group("name").split()
            while words and words[0].lower() in _LEADING_DROP | STOP_WORDS | _PRONOUNS:
                words = words[1:]
            while words and words[-1].lower() in _CONNECTORS:
                words = words[:-1]
            if not words:
                continue
            start = m.start() + m.group(0).index(words[0])
            name = " ".join(words)
            out.append(_Mention(Term(name.rstrip(".")), start, start + len(name)))
    return out


def _is_predicate(words: list[str]) -> bool:
    """A short lower-case verb phrase without clause boundaries."""
    if not words or len(words) > MAX_PREDICATE_WORDS:
        return False
    if any(not w.isalpha() and w not in ("'", "’") and not w.replace("-", "").isalpha() for w in words):
        return False
    low = [w.lower() for w in words]
    if any(w in _CLAUSE for w in low) or any(w[:1].isupper() for w in words):
        return False
    return any(
        w in _AUXILIARIES
        or w in VERB_FORMS
        or (w.endswith("ed") and len(w) > 3)
        or (w.endswith("s") and len(w) > 3 and w not in STOP_WORDS and not w.endswith("ss"))
        for w in low
    )


def _predicate(words: list[str]) -> str:
    low = [w.lower() for w in words]
    while low and low[-1] in _ARTICLES:
        low.pop()
    return " ".join(low)


def _copula(gap: str) -> str | None:
    """ "is a famous novel" -> "famous novel" (the noun phrase after is/was a/an/the)."""
    m = re.match(r"\s*(?:is|was|are|were)\s+(?:a|an|the)\s+([a-z][a-z -]*[a-z])", gap)
    if not m:
        return None
    words: list[str] = []
    for w in m.group(1).split():
        if w in STOP_WORDS or w in _QUALIFIER_PREPS or len(words) == 4:
            break
        words.append(w)
    return " ".join(words) or None


def _qualify(fact: Fact, preposition: str, value: Term) -> Fact:
    return Fact(fact.subject, fact.predicate, fact.object, fact.passage, fact.qualifiers + ((preposition, value),))
