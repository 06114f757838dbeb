"""Word-level helpers for answering: tokens, singular forms, typo-tolerant phrase matching, numbers in words."""

from __future__ import annotations

import re

from rapidfuzz import fuzz

_WORD = re.compile(r"[a-z0-9]+")
#: Words that never decide what a phrase means.
FILLER = frozenset(
    """a an the of in on at to for from by with and or that which who whom whose what is are was
were be been being has have had do does did it its their his her they them this these those there
different distinct""".split()
)
_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
WORD_NUMBERS = {w: i for i, w in enumerate(_ONES)} | {w: 10 * i for i, w in enumerate(_TENS) if i >= 2}


#: Plurals in "-ies" of nouns in "-ie" ("movies": movie, not "movy").
_IE_PLURALS = frozenset(
    {"movies", "cookies", "zombies", "rookies", "calories", "prairies", "selfies", "smoothies", "goalies"}
    | {"genies", "sorties", "brownies", "hoodies", "newbies", "aunties", "pixies", "freebies"}
)


def singular(word: str) -> str:
    """A crude singular of an English word ("properties" -> "property", "papers" -> "paper")."""
    if word in ("species", "series") or word[:-1].isdigit():
        return word  # "the 1990s" is a decade, not years named 1990
    if len(word) > 4 and word.endswith("ies"):
        return word[:-1] if word in _IE_PLURALS else word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def content_words(text: str) -> list[str]:
    """Lower-case singular words of `text` without filler words."""
    return [singular(w) for w in _WORD.findall(text.lower()) if w not in FILLER]


def same_word(a: str, b: str) -> bool:
    """Equal, or equal up to a typo (long enough words only)."""
    if a == b:
        return True
    shortest = min(len(a), len(b))
    return (shortest >= 5 and fuzz.ratio(a, b) >= 80) or (shortest == 4 and fuzz.ratio(a, b) >= 85)


def phrase_score(asked: str, candidate: str) -> float:
    """How well `candidate` (an attribute or type name) names `asked`: the share of the asked words it
    matches, less 0.1 per candidate word left unmatched. 0 when nothing matches."""
    a, c = content_words(asked), content_words(candidate)
    if not a or not c:
        return 0.0
    matched = sum(1 for w in a if any(same_word(w, x) for x in c))
    if not matched:
        return 0.0
    unmatched = sum(1 for x in c if not any(same_word(x, w) for w in a))
    return matched / len(a) - 0.1 * unmatched


def in_text(value: str, text: str, threshold: float = 88.0) -> bool:
    """Whether `value` is written in `text` (case-insensitive; typos tolerated for longer values)."""
    return written_at(value, text, threshold) is not None


def written_at(value: str, text: str, threshold: float = 88.0) -> tuple[int, int, float] | None:
    """Where and how well `value` is written in `text`: (start, end, score) in `text` lower-cased with its
    spaces collapsed; score 100 when written exactly, below 100 with a typo (longer values only, at
    least `threshold`); None when it is not written there."""
    v, t = " ".join(value.lower().split()), " ".join(text.lower().split())
    if not v:
        return None
    m = re.search(rf"(?<![a-z0-9]){re.escape(v)}(?![a-z0-9])", t)
    if m:
        return m.start(), m.end(), 100.0
    if len(v) < 6:
        return None
    near = fuzz.partial_ratio_alignment(v, t, score_cutoff=threshold)
    return (near.dest_start, near.dest_end, min(near.score, 99.9)) if near is not None else None


def number_words(n: int) -> str:
    """A whole number in words ("two", "twenty-one"); digits above 999."""
    if n < 0 or n > 999:
        return str(n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    hundreds, rest = divmod(n, 100)
    return f"{_ONES[hundreds]} hundred" + (f" and {number_words(rest)}" if rest else "")


def count_phrase(n: int, noun: str) -> str:
    """ "two papers (2)", "one paper (1)", "no papers (0)"."""
    noun_form = noun if n == 1 else plural(noun)
    return f"{'no' if n == 0 else number_words(n)} {noun_form} ({n})"


def plural(noun: str) -> str:
    """The plural of a noun phrase's last word ("research object" -> "research objects")."""
    words = noun.split()
    for joint in ("to", "of"):
        if joint in words[1:]:
            k = words.index(joint) - 1
            return " ".join(words[:k] + [plural(words[k])] + words[k + 1 :])
    head, _, last = noun.rpartition(" ")
    if not last or last.endswith(("s", ")")):  # "person (directed)": the qualifier stays as it is
        return noun
    p = (
        last[:-1] + "ies"
        if last.endswith("y") and last[-2:-1] not in "aeiou"
        else last + ("es" if last.endswith(("sh", "ch", "x")) else "s")
    )
    return f"{head} {p}".strip()


def label_words(label: str) -> str:
    """A label as words: underscores, dashes, brackets and camelCase split, lower-cased."""
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", label)
    return " ".join(re.sub(r"[^0-9A-Za-z\u00C0-\uFFFF']+", " ", text).split()).lower()


#: Words that make a predicate label a verb phrase ("wrote", "published at", "has tags").
_VERB_WORDS = frozenset(
    {"has", "have", "is", "was", "are", "were", "wrote", "made", "won", "knows", "likes"}
    | {"cites", "uses", "contains", "includes", "mentions"}
    # irregular pasts a rel table is named by (`TOOK`, `TAUGHT`, `LED`): "Ann took Databases"
    | {"took", "taught", "led", "built", "held", "sold", "bought", "gave", "sang", "drew", "spoke", "began", "came"}
)
PARTICLES = frozenset({"at", "by", "in", "of", "on", "to", "from", "with", "for", "into", "under"})


def verbal_label(predicate: str) -> bool:
    """Whether a predicate label reads as a verb phrase rather than a noun ("author", "release year")."""
    words = label_words(predicate).split()
    if not words:
        return False
    if words[0] in _VERB_WORDS or (len(words) > 1 and words[-1] in PARTICLES):
        return True
    return words[0].endswith("ed") and len(words) == 1  # "directed"; "starred actors" is a noun


def agreeing(verb_phrase: str, subjects: int) -> str:
    """The verb phrase for several subjects ("comes from" -> "come from", "has" -> "have")."""
    first, _, rest = verb_phrase.partition(" ")
    if subjects < 2 or not first.endswith("s") or first.endswith("ss"):
        return verb_phrase
    plural = {"has": "have", "is": "are", "was": "were"}.get(first) or (
        first[:-2] if first.endswith(("ches", "shes", "xes", "sses")) else first[:-1]
    )
    return f"{plural} {rest}".strip()


def gerund(verb_phrase: str) -> str | None:
    """A present-tense verb, alone or with its particle, as its -ing form ("uses" -> "using", "belongs to" ->
    "belonging to"), which reads alike after one thing or several; None for any other phrase ("wrote",
    "published at", "uses input data": a label that holds its own object)."""
    first, _, rest = verb_phrase.partition(" ")
    if not first.endswith("s") or first.endswith("ss") or first in ("is", "was", "has", "does"):
        return None
    if rest and (" " in rest or rest not in PARTICLES):
        return None
    base = agreeing(first, 2)
    stem = base[:-1] if base.endswith("e") and not base.endswith("ee") else base
    return f"{stem}ing {rest}".strip()


def join_items(items: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


#: Values one sentence writes out; a longer list (a paper with 200,000 authors) ends "and N more".
WRITTEN_MAX = 100


def written(items: list[str], limit: int = WRITTEN_MAX) -> str:
    """`join_items`, with at most `limit` items written out and the rest counted."""
    if len(items) <= limit:
        return join_items(items)
    return join_items(items[:limit] + [f"{len(items) - limit:,} more"])


NEGATIVE_VALUES = frozenset({"false", "no", "none", "0", "n/a", "na", "null", "nil", "never", "-"})


def is_negative_value(text: str) -> bool:
    """A literal that says "no": False, None, 0, "No input data used", ..."""
    low = text.strip().lower()
    return low in NEGATIVE_VALUES or low.split(" ", 1)[0] in {"no", "not", "none", "without", "never"}
