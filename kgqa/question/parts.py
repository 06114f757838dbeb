"""Questions that ask two things at once, read as their two parts: two clauses joined by "and" ("Who wrote
X and who directed it?", "When was X released and what genre is it?") or two verbs sharing one question
word and object ("Who wrote and directed X?"). The second clause may name the first one's topic, or its
one answer, by a pronoun ("it", "she"); `QuestionParts.second_for` puts the name in its place once the
first part is answered. Two nouns of one thing ("What are the genre and release year of X?", "what genre
and language is X") are two parts as well. A question about two named things ("Who directed X and Y?") is two parts too,
where the graph says X and Y are two things (`parts_for_each`). General English only: the graph is asked
through a callback."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from kgqa.question.components import VERB_FORMS
from kgqa.question.verbs import AGENT_NOUNS

_WH = r"(?:who|whom|whose|what|which|when|where|how)"
#: A clause that starts a question: a question word (after a preposition), or a request ("name", "list").
_OPENING = re.compile(rf"^\s*(?:(?:in|on|at|for|from|by|with|to)\s+)?{_WH}\b|^\s*(?:name|list|give|tell|show)\b", re.I)
#: "..., and (also) who ...": the second clause starts with its own question word.
_CLAUSES = re.compile(
    rf"^(?P<first>.+?)\s*,?\s+and\s+(?:also\s+|then\s+)?(?P<second>(?:(?:in|on|at|for|from|by|with|to)\s+)?{_WH}\b.+)$",
    re.I,
)
#: "Who wrote and directed X": one question word, two verbs, one object.
_SHARED = re.compile(
    r"^\s*(?P<wh>who|what|which)\s+(?P<v1>[a-z]+)\s+and\s+(?:also\s+)?(?P<v2>[a-z]+)\s+(?P<rest>.+)$", re.I
)
#: "What are the genre and (the) release year of X": two nouns of one thing.
_NOUNS_OF = re.compile(
    r"^\s*(?P<ask>(?:what|which|who)\s+(?:is|are|was|were)\s+the)\s+(?P<n1>[a-z][a-z\- ]{0,40}?)\s*,?\s+and\s+"
    r"(?:the\s+)?(?P<n2>[a-z][a-z\- ]{0,40}?)\s+(?P<rest>(?:of|for|in)\s+.+)$",
    re.I,
)
#: "What genre and language is X".
_NOUNS_IS = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?P<n1>[a-z]+)\s+and\s+(?P<n2>[a-z]+)\s+(?P<rest>(?:is|are|was|were|does|do|did)\s+.+)$",
    re.I,
)
_PREPOSITION = re.compile(r"^(?:in|on|at|for|from|by|with|to|of)\s+", re.I)
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”")
_THING = re.compile(r"\bit\b|\bits\b", re.I)
_PERSON = re.compile(r"\b(?:he|she|him|his|her|hers)\b", re.I)
_MANY = re.compile(r"\b(?:they|them|their|theirs)\b", re.I)
_POSSESSIVE = frozenset({"its", "his", "hers"})
#: Words after "her" that show it is no possessive ("who directed her in X").
_NOT_A_NOUN = frozenset("and or in on at for to with by from as than".split())
_QUOTES = "'\"‘’“”"
_OTHERS = re.compile(r"\b(?:else|other|others|another|besides)\b", re.I)
#: Openings that ask the same thing of each named thing ("who directed X and Y", "which films did A and B
#: direct": the films of each), not where the question asks for what both have ("which films did A and B
#: *both* direct", "... *together*": those of both at once, one question).
_ASKS_OF_EACH = re.compile(
    r"^\s*(?!.*\b(?:both|together|jointly|in\s+common|each\s+other|alongside)\b)"
    r"(?:who|whom|whose|when|where|(?:in\s+)?what\s+year|(?:what|which)\s+(?:is|are|was|were)\s+the"
    r"|(?:what|which)\s+[a-z]+\s+(?:did|do|does|have|has|had|is|are|was|were)\s)",
    re.I,
)
_ASKS_FOR_PERSON = re.compile(r"^\s*(?:who|whom)\b", re.I)


@dataclass(frozen=True)
class QuestionParts:
    """The two questions a question asks; `second` may still hold a pronoun for the first part's topic
    or answer."""

    first: str
    second: str

    def asks_for_others(self) -> bool:
        """Whether the second part asks for things other than the first part's topic ("what *else*
        did she direct", "her *other* films")."""
        return bool(_OTHERS.search(self.second))

    def second_for(self, topic: str | None, answers: list[str]) -> str | None:
        """The second part with its pronouns replaced: "it"/"its" by the first part's topic, a person's
        pronoun by the first part's one answer where it asked "who" (else by the topic). None where a
        pronoun stands for something the first part did not settle (no topic; "they" for several)."""
        text = self.second
        if _MANY.search(text):
            return None
        if _ASKS_FOR_PERSON.match(self.first):  # "who directed X and what else did she direct": the director
            person = answers[0] if len(answers) == 1 else None
        else:  # "when was X born and where did she study": X
            person = topic
        for pattern, name in ((_THING, topic), (_PERSON, person)):
            if not pattern.search(text):
                continue
            if not name:
                return None
            text = pattern.sub(partial(_named, name=name), text)
        return text


def question_parts(question: str) -> QuestionParts | None:
    """The two parts of a question that asks two things, or None for a question that asks one ("Who
    directed X and Y?", "When was Pride and Prejudice released?")."""
    text = question.strip()
    masked = _masked(text)
    m = _CLAUSES.match(masked)
    if m and _OPENING.match(masked) and len(m.group("first").split()) >= 3:
        first, second = text[: m.end("first")].rstrip(" ,"), text[m.start("second") :]
        return QuestionParts(_as_question(first), _as_question(second))
    m = _NOUNS_OF.match(masked)
    if m and " and " not in f" {m.group('n1')} " and " and " not in f" {m.group('n2')} ":
        ask, n1, n2, rest = (text[m.start(g) : m.end(g)] for g in ("ask", "n1", "n2", "rest"))
        return QuestionParts(_as_question(f"{ask} {n1} {rest}"), _as_question(f"{ask} {n2} {rest}"))
    m = _NOUNS_IS.match(masked)
    if m and not _is_verb(m.group("n1")) and not _is_verb(m.group("n2")):
        wh, n1, n2, rest = (text[m.start(g) : m.end(g)] for g in ("wh", "n1", "n2", "rest"))
        return QuestionParts(_as_question(f"{wh} {n1} {rest}"), _as_question(f"{wh} {n2} {rest}"))
    m = _SHARED.match(masked)
    if m and _is_verb(m.group("v1")) and _is_verb(m.group("v2")):
        wh, v1, v2, rest = (text[m.start(g) : m.end(g)] for g in ("wh", "v1", "v2", "rest"))
        # "who directed and starred in X": the preposition belongs to the second verb only
        return QuestionParts(_as_question(f"{wh} {v1} {_PREPOSITION.sub('', rest)}"), _as_question(f"{wh} {v2} {rest}"))
    return None


def _masked(text: str) -> str:
    """`text` with its quoted titles blanked out, same length: an "and" inside one splits nothing."""
    return _QUOTED.sub(lambda m: "x" * len(m.group()), text)


def _is_verb(word: str) -> bool:
    low = word.lower()
    return low in VERB_FORMS or low in AGENT_NOUNS or (low.endswith("ed") and len(low) > 4)


def _as_question(text: str) -> str:
    text = text.strip().rstrip("?.!, ").strip()
    return text[:1].upper() + text[1:] + "?"


def _named(pronoun: re.Match[str], name: str) -> str:
    """The name in a pronoun's place, possessive where the pronoun was ("its genre", "her films")."""
    word, after = pronoun.group().lower(), re.match(r"\s+([A-Za-z]+)", pronoun.string[pronoun.end() :])
    possessive = word in _POSSESSIVE or (word == "her" and after is not None and after[1].lower() not in _NOT_A_NOUN)
    return f"'{name}'s" if possessive else f"'{name}'"


def parts_for_each(question: str, named_at: Callable[[str], tuple[int, int] | None]) -> QuestionParts | None:
    """ "Who directed X and Y?" as "Who directed X?" and "Who directed Y?", where `named_at(text)` (the
    span of the graph's label that `text` names) finds X right before an "and" and Y right after it, and
    no one label spans both ("Pride and Prejudice"). None for other questions."""
    text = question.strip()
    if not _ASKS_OF_EACH.match(text):
        return None
    masked = _masked(text)
    whole: list[tuple[int, int] | None] = []  # the label the whole question names, read once when needed
    for joint in re.finditer(r"\s*,?\s+and\s+", masked):
        before = text[: joint.start()]
        x = named_at(before)
        if x is None or x[1] != len(before.rstrip(_QUOTES)):
            continue
        if not whole:
            whole.append(named_at(text))
        if whole[0] is not None and whole[0][0] < joint.start() < whole[0][1]:
            return None  # one label with "and" in it
        x_start = x[0] - 1 if x[0] > 0 and text[x[0] - 1] in _QUOTES else x[0]
        second = before[:x_start] + text[joint.end() :]
        y = named_at(second)
        if y is None or y[0] - x_start not in (0, 1):
            continue
        y_end = y[1] + 1 if second[y[1] : y[1] + 1] in tuple(_QUOTES) else y[1]
        return QuestionParts(_as_question(before + second[y_end:]), _as_question(second))
    return None
