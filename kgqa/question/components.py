"""Offline, rule-based question component extraction (the LLM-free EXTRACTCOMPONENTS, spec §3), and
the analysis that tells, for any component list, which components name a value and which an attribute.

A question such as "Which papers investigate the research object Technical Debt in 2017?" has
*anchors*, values the answer must match (quoted strings, numbers, capitalised names: "Technical Debt",
"2017"), and *attributes*, descriptions of what is asked or constrained ("research object",
"publication year"). An attribute written directly before an anchor ("the research object Technical
Debt") only qualifies that anchor; it is kept as the anchor's qualifier, not searched for on its own."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

STOP_WORDS = frozenset(
    """
a an the of in on at to for from by with about into over under and or not no nor but as is are was were be
been being do does did has have had having this that these those there here which who whom whose what when
where why how many much more most less least all any some each every other than then so such it its they
them their we our you your i me my he she his her can could should would may might will shall must also
only just very paper's per please list give show tell find name names provide return count number order
ordered rank ranked descending ascending respect regarding based according among amongst between versus vs
often frequent frequently comparison compared different distinct alphabetical alphabetically total average
mean highest lowest maximum minimum respectively both either neither whether if without within while
""".split()
)

QUESTION_WORDS = frozenset(
    {
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "is",
        "are",
        "was",
        "were",
        "do",
        "does",
        "did",
        "list",
        "give",
        "show",
        "name",
    }
)

#: Verbs that carry no searchable content in a question ("papers that *apply* ..."), in all forms.
_VERB_STEMS = """apply investigate evaluate publish indicate discuss compare distribute classify adhere propose
describe consider examine analyse analyze employ contain include mention validate assess conduct perform
introduce utilize utilise adopt address present provide appear belong occur exist""".split()
_IRREGULAR = {
    "made",
    "makes",
    "make",
    "making",
    "used",
    "uses",
    "using",
    "written",
    "wrote",
    "writes",
    "done",
    "doing",
    "shown",
    "showed",
    "gave",
    "given",
    "found",
    "taken",
    "took",
    "came",
    "come",
    "comes",
    "went",
}


def _inflections(verb: str) -> set[str]:
    stem = verb[:-1] if verb.endswith("e") else verb
    forms = {verb, verb + "s", stem + "ed", stem + "ing", verb + "d"}
    if verb.endswith("y"):
        forms |= {verb[:-1] + "ies", verb[:-1] + "ied"}
    if verb.endswith(("sh", "ss", "ch", "x")):
        forms.add(verb + "es")
    return forms


VERB_FORMS = frozenset(set().union(*(_inflections(v) for v in _VERB_STEMS)) | _IRREGULAR)
#: Lower-case words that may join capitalised words into one name ("Freedom from Risk").
_NAME_CONNECTORS = frozenset(
    {"of", "from", "for", "in", "on", "the", "to", "with", "at", "de", "van", "von", "der", "du", "la", "le"}
)
#: Lower-case words that may join two content words into one phrase.
_PHRASE_CONNECTORS = frozenset({"to"})
#: Lower-case words that may join two content words into one phrase.
_PHRASE_CONNECTORS = frozenset({"to"})
_NOT_ADVERBS = frozenset({"family", "assembly", "anomaly", "supply", "monopoly", "reply", "apply", "italy"})

_QUOTED = re.compile(r"""["“”‘’]([^"“”‘’]{2,})["“”‘’]|(?<![A-Za-z])'([^']{2,}?)'(?![A-Za-z])""")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
_TOKEN = re.compile(r"[A-Za-z][\w\-/&+.]*\w|[A-Za-z]|[|?,;:!()]")
_SENTENCE_END = frozenset("|?!.;:")
_YEAR_RANGE = re.compile(
    r"\b(?:from|between)\s+(?:the\s+)?(?:\w+\s+){0,3}?(\d{4})\s+(?:to|and|until|till|-)\s+(\d{4})\b", re.IGNORECASE
)
MAX_RANGE = 30
_TEMPORAL = re.compile(
    r"\b(?:earlier|later|older|newer|oldest|newest|latest|earliest|most recent|"
    r"chronological(?:ly)?|before|after)\b",
    re.IGNORECASE,
)


def _range_years(question: str) -> list[str]:
    """The years strictly inside "from 2019 to 2021"-style ranges (the bounds are found as numbers)."""
    out: list[str] = []
    for m in _YEAR_RANGE.finditer(question):
        lo, hi = int(m.group(1)), int(m.group(2))
        if 0 < hi - lo <= MAX_RANGE:
            out += [str(y) for y in range(lo + 1, hi)]
    return out


def _is_filler(word: str) -> bool:
    low = word.lower()
    return low in STOP_WORDS or low in VERB_FORMS or (low.endswith("ly") and len(low) > 5 and low not in _NOT_ADVERBS)


def _spans(text: str) -> tuple[list[str], list[str]]:
    """Capitalised names and lower-case noun phrases of `text` (quotes and numbers already removed)."""
    tokens = _TOKEN.findall(text)
    names: list[str] = []
    phrases: list[str] = []
    name: list[str] = []
    phrase: list[str] = []

    def flush_name() -> None:
        while name and name[-1].lower() in _NAME_CONNECTORS:
            name.pop()
        if name:
            names.append(" ".join(name))
        name.clear()

    def flush_phrase() -> None:
        while phrase and phrase[-1].lower() in _PHRASE_CONNECTORS:
            phrase.pop()
        if phrase:
            phrases.append(" ".join(phrase))
        phrase.clear()

    sentence_start = True
    after_who = False
    for tok in tokens:
        if not tok[0].isalpha():
            flush_name()
            flush_phrase()
            sentence_start = sentence_start or tok in _SENTENCE_END or tok == "|"
            after_who = False
            continue
        low = tok.lower()
        initial, sentence_start = sentence_start, False
        verb, after_who = after_who, low in ("who", "whom")
        if verb and not tok[0].isupper() and not _is_filler(tok):
            # "who directed cold orchard": the word after "who" is its verb, a phrase of its own,
            # never the start of the object's name however the object is cased
            flush_name()
            flush_phrase()
            phrases.append(tok)
            continue
        if tok[0].isupper() and not (initial and (_is_filler(tok) or low in QUESTION_WORDS)):
            flush_phrase()
            name.append(tok)
        elif name and low in _NAME_CONNECTORS:
            name.append(tok)  # kept only if another capitalised word follows
        elif phrase and low in _PHRASE_CONNECTORS and phrase[-1].lower() not in _PHRASE_CONNECTORS:
            phrase.append(tok)  # kept only if another content word follows ("threats to validity")
        elif _is_filler(tok) or (initial and low in QUESTION_WORDS):
            flush_name()
            flush_phrase()
        else:
            flush_name()
            phrase.append(tok)
    flush_name()
    flush_phrase()
    return names, phrases


def extract_components(question: str, max_components: int = 8) -> list[str]:
    """Quoted strings, years and numbers, capitalised names and filler-free noun phrases."""
    found: list[str] = []
    rest = question
    for m in _QUOTED.finditer(question):
        text = (m.group(1) or m.group(2) or "").strip()
        if text:
            found.append(text)
            rest = rest.replace(m.group(0), " | ")
    found += _NUMBER.findall(rest) + _range_years(rest)
    rest = _NUMBER.sub(" | ", rest)
    names, phrases = _spans(rest)
    found += names + phrases
    if _TEMPORAL.search(question) and not any("year" in c.lower() or "date" in c.lower() for c in found):
        found.append("year")  # "published earlier than", "from oldest to newest": compare dates
    out: list[str] = []
    seen: set[str] = set()
    for c in found:
        c = c.strip(" .?!,;:")
        key = c.lower()
        if c and key not in seen and key != question.strip(" ?").lower():
            seen.add(key)
            out.append(c)
    return out[:max_components]


@dataclass(frozen=True)
class Component:
    """A question component: its text, whether it is an anchor (a value to match) or an attribute,
    and for an anchor the attribute that qualified it in the question."""

    text: str
    anchor: bool
    qualifier: str | None = None
    negated: bool = False  # an attribute the question negates ("no input data", "without a guideline")


def _is_anchor_text(text: str, question: str) -> bool:
    if _NUMBER.fullmatch(text.strip()):
        return True
    if any((m.group(1) or m.group(2) or "").strip() == text for m in _QUOTED.finditer(question)):
        return True
    return text[:1].isupper()


def _split_vocabulary(text: str, vocabulary: Iterable[str]) -> tuple[str, str] | None:
    """("paper class", "philosophical paper") for "paper class philosophical paper" when "paper class"
    is a predicate of the graph: the longest vocabulary phrase the text starts with, and the rest."""
    low = text.lower()
    best = ""
    for phrase in vocabulary:
        p = phrase.lower().strip()
        if p and len(p) > len(best) and low.startswith(p + " "):
            best = p
    if not best:
        return None
    return text[: len(best)], text[len(best) + 1 :].strip()


def analyse_components(
    question: str,
    components: list[str],
    vocabulary: Iterable[str] = (),
    ignore: Iterable[str] = (),
    named: NamedLabel | None = None,
) -> list[Component]:
    """Classify components as anchors or attributes, split "attribute value" phrases on the graph's
    predicate vocabulary, fold qualifying attributes into their anchors and drop ignored words
    (such as the hub type: "papers" when every hub is a paper). `named`, a label of the graph the
    question writes, is one anchor in place of the pieces the components made of it."""
    vocabulary = list(vocabulary)
    ignored = {w.lower() for w in ignore}
    label = value_label(named, vocabulary, ignored)
    components = with_named_label(question, components, named, label)
    items: list[Component] = []
    for text in components:
        text = text.strip()
        if not text:
            continue
        if label is not None and text == label:
            items.append(Component(text, True))
            continue
        split = None if _is_anchor_text(text, question) else _split_vocabulary(text, vocabulary)
        if split and split[1]:
            items.append(Component(split[1], True, split[0]))
        else:
            items.append(Component(text, _is_anchor_text(text, question)))
    qualifiers = {c.qualifier.lower() for c in items if c.qualifier}
    out: list[Component] = []
    for c in items:
        if c.anchor and c.qualifier is None:
            c = Component(c.text, True, _qualifier_before(question, c.text, items))
            if c.qualifier:
                qualifiers.add(c.qualifier.lower())
        out.append(c)
    kept = [c for c in out if c.anchor or (c.text.lower() not in qualifiers and not _ignored(c.text, ignored))]
    final = kept or out
    return [
        Component(
            c.text,
            c.anchor,
            c.qualifier,
            not c.anchor and _negated(question, c.text) and not _contrasted(c.text, final),
        )
        for c in final
    ]


@dataclass(frozen=True)
class NamedLabel:
    """A label of the graph written in the question as whole words, and where (`start`, `end`)."""

    label: str
    start: int
    end: int


#: Fewest words a label needs to stand for a value however it is cased: one word ("simulation",
#: "paper") is as often an ordinary word of the question as the name of something.
NAMED_MIN_WORDS = 2


def value_label(named: NamedLabel | None, vocabulary: Iterable[str], ignored: set[str]) -> str | None:
    """The label of `named` where it stands for a value: at least NAMED_MIN_WORDS words, and neither a
    predicate of the graph (an attribute) nor an ignored word (a hub type)."""
    if named is None or len(named.label.split()) < NAMED_MIN_WORDS:
        return None
    low = named.label.lower()
    if low in ignored or any(low == v.lower().strip() for v in vocabulary):
        return None
    return named.label


def with_named_label(question: str, components: list[str], named: NamedLabel | None, label: str | None) -> list[str]:
    """`components` with `label` (the value label of `named`, see `value_label`) in place of the
    components that lie inside it in the question ("data-driven refactoring", "sensor networks" of a
    lower-case title): a user who types a title or a name without quotes or capitals still names one
    value. Unchanged without a label, or when the components hold it as written."""
    if named is None or label is None or label in components:
        return components
    out: list[str] = []
    for text in components:
        if text.strip().lower() == label.lower() or _only_inside(question, text.strip(), named.start, named.end):
            if label not in out:
                out.append(label)
        else:
            out.append(text)
    return out if label in out else [label, *out]


def _only_inside(question: str, text: str, start: int, end: int) -> bool:
    """Whether every place `question` writes `text` (case-insensitive) lies within [start, end)."""
    places = [m.start() for m in re.finditer(re.escape(text.lower()), question.lower())] if text else []
    return bool(places) and all(start <= p and p + len(text) <= end for p in places)


def _contrasted(attribute: str, components: list[Component]) -> bool:
    """ "not used input data compared to ... made input data available": the attribute also occurs
    un-negated in another component, so the question contrasts both cases rather than filtering."""
    low = attribute.lower()
    return any(low in c.text.lower() and c.text.lower() != low for c in components)


_NEGATIONS = r"(?:no|not|without|never|none|neither|nor)"


def _negated(question: str, attribute: str) -> bool:
    """Whether a negation word precedes the attribute with at most three filler words between."""
    for m in re.finditer(
        r"\b" + _NEGATIONS + r"\b((?:\s+[\w'-]+){0,3}?)\s+" + re.escape(attribute) + r"\b",
        question,
        flags=re.IGNORECASE,
    ):
        if all(_is_filler(w) for w in m.group(1).split()):
            return True
    return False


def _qualifier_before(question: str, anchor: str, items: list[Component]) -> str | None:
    """The attribute component written directly before `anchor` after an article ("the property
    Reliability", "the title 'X'"), if any."""
    for c in items:
        if not c.anchor and re.search(
            r"\b(?:the|a|an)\s+" + re.escape(c.text) + r"\s+(?:['\"“‘])?" + re.escape(anchor),
            question,
            flags=re.IGNORECASE,
        ):
            return c.text
    return None


def _ignored(text: str, ignored: set[str]) -> bool:
    word = text.strip().lower()
    return word in ignored or word.rstrip("s") in ignored
