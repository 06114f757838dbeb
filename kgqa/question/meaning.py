"""What a question asks, read by meaning: the operation, the asked attribute and the sort or group key.

The rules of kgqa/answering/question.py are the fast path where a keyword makes them certain (rank,
group, compare, count, max, min, negation). Otherwise the question, with its linked names masked, is
embedded once and compared with a small set of operation exemplars (embedded once per model) and with
the graph's attribute names (embedded once per catalog). Operation words written with a typo are read
with rapidfuzz before any of this."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz

from kgqa.answering.catalog import Catalog
from kgqa.answering.question import QuestionPlan, asks_yes_no
from kgqa.answering.words import phrase_score, plural, singular
from kgqa.embeddings.base import Embedder
from kgqa.question.verbs import agent_words, object_roles, share_a_stem

#: A few wordings per operation; they name no graph and no attribute.
EXEMPLARS: dict[str, tuple[str, ...]] = {
    "count": ("how many are there", "count them", "what is the number of", "total number of"),
    "list": ("list all of them", "show me every one", "which ones are there", "give me all"),
    "rank": ("sort them by", "order them from oldest to newest", "newest first", "rank them by"),
    "max": ("which one has the most", "the most frequent one", "who has the highest number"),
    "min": ("which one has the fewest", "the least frequent one", "the lowest number"),
    "compare": ("compare the two", "what is the difference between the two", "the first versus the second"),
    "group": ("how many per category", "broken down by each group", "the distribution over"),
    "negation": ("which ones do not have", "the ones without any", "which lack"),
    "relationship": ("how are the two related", "what connects the two", "what is the relation between"),
    "lookup": ("what is its value", "who made it", "where did it appear", "when was it made"),
}
_TYPO_WORDS = {
    "count": "count",
    "many": "count",
    "number": "count",
    "rank": "rank",
    "sort": "rank",
    "sorted": "rank",
    "order": "rank",
    "ordered": "rank",
    "compare": "compare",
    "versus": "compare",
    "most": "max",
    "fewest": "min",
    "least": "min",
    "group": "group",
    "grouped": "group",
}
_COMPARE = re.compile(r"^\s*(please\s+)?compare\b|\bdifference between\b|\bin terms of\b|\bside by side\b", re.I)
_RELATION = re.compile(
    r"\b(related|relation|relationship|connected|connection|connects?|link between|links? between|linked|in common)\b",
    re.I,
)
_TOGETHER = re.compile(
    r"\b(?:together|alongside)\b|\b(?:work|works|worked|working|collaborat\w*|act|acts|acted|acting|star|stars|"
    r"starred|appear|appears|appeared|perform\w*|play|plays|played|co-?star\w*|co-?wr\w*|team\w*|partner\w*|"
    r"been\s+in\s+(?:a|an|any|the)?\s*\w+)\s+(?:\w+\s+){0,3}?with\b",
    re.I,
)
_NEWEST = re.compile(
    r"\b(newest|latest|most recent|recent) first\b|\bfrom (the )?(newest|latest|most recent)\b|"
    r"\b(descending|decreasing|z to a|highest first|reverse)\b",
    re.I,
)
_WORD = re.compile(r"[A-Za-z][A-Za-z\-']*")
_DATE = re.compile(r"\d{4}-\d\d(-\d\d)?([T ][\d:.]+)?")
_IMPERATIVE = re.compile(r"^\s*(please\s+)?(list|show|give me|find|name|return|display|enumerate|get)\b", re.I)
_WH_HINTS = {"who": "person, author", "whom": "person, author", "where": "place, venue, location", "when": "date, year"}
_EXEMPLAR_CACHE: dict[str, tuple[list[str], np.ndarray]] = {}
MIN_ATTRIBUTE_SIMILARITY = 0.3


@dataclass
class Reading:
    """The operation, the asked attribute (None: the hubs themselves), the key and the direction."""

    operation: str  # list count rank max min compare group negation relationship lookup threshold
    asked: str | None
    key: str | None = None
    descending: bool = False
    certain: bool = False  # decided by a rule
    #: The question's word for the values of the attribute asked or grouped by, where it names their type
    #: ("department" for "works in"), as answers call them.
    noun: str = ""


def typo_operation(question: str) -> str | None:
    """The operation an operation word written with a typo names ("cuont", "rnak", "comapre")."""
    for w in _WORD.findall(question.lower()):
        if len(w) < 4 or w in _TYPO_WORDS:
            continue
        for word, op in _TYPO_WORDS.items():
            if len(word) >= 4 and abs(len(word) - len(w)) <= 1 and fuzz.ratio(w, word) >= 75 and w[0] == word[0]:
                return op
    return None


def _exemplars(embedder: Embedder) -> tuple[list[str], np.ndarray]:
    key = embedder.name
    if key not in _EXEMPLAR_CACHE:
        ops = [op for op, texts in EXEMPLARS.items() for _ in texts]
        _EXEMPLAR_CACHE[key] = (ops, embedder.embed([t for texts in EXEMPLARS.values() for t in texts]))
    return _EXEMPLAR_CACHE[key]


def _attribute_vectors(cat: Catalog, embedder: Embedder) -> tuple[list[str], np.ndarray]:
    names = cat.attributes()
    if cat.vectors.get("model") != embedder.name:
        cat.vectors = {"model": embedder.name, "names": names, "vectors": embedder.embed(names)}
    return cat.vectors["names"], cat.vectors["vectors"]  # type: ignore[return-value]


def prepare(cat: Catalog, embedder: Embedder) -> None:
    """Compute now what reading a question computes once per catalog (the operation exemplars' and the
    attributes' vectors, the attributes' first values), so that no question pays for it."""
    _exemplars(embedder)
    for attribute in _attribute_vectors(cat, embedder)[0]:
        cat.first_values(attribute, 200)
    cat.hub_link_attributes()


#: Nouns people use for the same kind of thing (general English): a hub type named "Movie" is also asked
#: for as "films".
_SAME_KIND = (
    frozenset({"movie", "film", "picture"}),
    frozenset({"paper", "publication", "article", "study", "work"}),
    frozenset({"book", "novel"}),
    frozenset({"song", "track"}),
    frozenset({"show", "series", "programme", "program"}),
    frozenset({"person", "people", "individual"}),
    frozenset({"company", "firm", "business", "organisation", "organization"}),
    frozenset({"recipe", "dish", "meal"}),
    frozenset({"employee", "worker"}),
    frozenset({"player", "athlete"}),
    frozenset({"city", "town"}),
)


def names_hubs(phrase: str, cat: Catalog) -> bool:
    """Whether `phrase` asks for the hubs themselves ("papers", "publications", "titles"; "films" when
    the hubs are movies)."""
    said = phrase.lower().split()
    hub = cat.hub_type.lower()
    if hub in said or plural(hub) in said:  # "movies": the crude singular would read "movy"
        return True
    kinds = kind_words(cat.hub_type) | {"publication", "title", "article", "work", "study", "one"}
    return any(_is_kind(w, kinds) for w in said)


def kind_of_hubs(word: str) -> str | None:
    """`word` in the singular where it is an everyday word for a kind of thing ("films" -> "film",
    "movies" -> "movie"), else None."""
    for kind in _SAME_KIND:
        if word.endswith("ies") and word[:-1] in kind:
            return word[:-1]
        if singular(word) in kind:
            return singular(word)
    return None


def kind_words(hub_type: str) -> set[str]:
    """The hub type's own word and its everyday synonyms ("Movie": movie, film, picture)."""
    own = singular(hub_type.lower())
    return {own} | {w for kind in _SAME_KIND if own in kind or hub_type.lower() in kind for w in kind}


def same_kind(word: str, type_name: str) -> bool:
    """Whether `word` names things of the type `type_name` by its own word or an everyday synonym
    ("films" of "Movie", "people" of "Person")."""
    return _is_kind(word, kind_words(type_name))


def _is_kind(word: str, kinds: set[str]) -> bool:
    """Whether `word` is one of `kinds` or its plural ("films"; "movies", which `singular` reads "movy")."""
    return singular(word) in kinds or (word.endswith("ies") and word[:-1] in kinds)


def hub_type_named(question: str, asked: str, types: list[str]) -> str | None:
    """Of several hub types, the one a question asks for: the one its asked phrase names ("how many
    *films* ..."), else the first one a word of the question names ("directors of the films of X"),
    by the type's own word or an everyday synonym; None when it names none."""
    kinds = {t: kind_words(t) for t in types}
    said = re.findall(r"[a-z]+", asked.lower())
    for hub_type in types:
        if any(_is_kind(w, kinds[hub_type]) for w in said):
            return hub_type
    words = re.findall(r"[a-z]+", question.lower())
    firsts = [(next((i for i, w in enumerate(words) if _is_kind(w, kinds[t])), len(words)), t) for t in types]
    first = min(firsts)
    return first[1] if first[0] < len(words) else None


def lexical_attribute(phrase: str, cat: Catalog, exact: bool = False) -> str | None:
    """The attribute `phrase` names word for word (typos tolerated), or None; with `exact`, only one
    whose every word the phrase writes and no other."""
    if not phrase:
        return None
    scored = sorted(((phrase_score(phrase, a), a) for a in cat.attributes()), reverse=True)
    floor = 0.999 if exact else 0.5
    return scored[0][1] if scored and scored[0][0] >= floor else None


#: Words that ask how long something takes, and the names of the values that say it.
_TIME_WORDS = frozenset({"time", "duration", "long", "length"})
_TIME_UNITS = frozenset({"minutes", "minute", "hours", "hour", "seconds", "runtime", "duration", "mins"})


def timed_attribute(phrase: str, cat: Catalog) -> str | None:
    """The one attribute named by a unit of time where `phrase` asks for a time or a duration ("cooking
    time": `minutes`), or None."""
    if not _TIME_WORDS & set(phrase.lower().split()):
        return None
    named = [a for a in cat.attributes() if _TIME_UNITS & set(a.replace("_", " ").lower().split())]
    return named[0] if len(named) == 1 else None


def _with_hint(masked: str) -> str:
    """The question with the sense of its wh-word spelled out ("where" -> place, venue, location)."""
    wh = re.match(r"\s*(?:in |at |from |on )?(who|whom|where|when)\b", masked, re.I)
    return f"{masked} ({_WH_HINTS[wh.group(1).lower()]})" if wh else masked


def _shape(masked: str) -> str:
    """ "numeric" when the question asks for a time, "text" when it asks for a place, else ""."""
    if re.match(r"\s*(when|what year|which year|in which year|in what year)\b", masked, re.I):
        return "numeric"
    return "text" if re.match(r"\s*(?:in |at )?where\b", masked, re.I) else ""


def _numeric_share(cat: Catalog, attribute: str) -> float:
    """The share of an attribute's first values that are numbers, years or dates ("2023-03-23")."""
    values = cat.first_values(attribute, 200)
    numeric = sum(v.strip().replace(".", "", 1).isdigit() or bool(_DATE.fullmatch(v.strip())) for v in values)
    return numeric / max(len(values), 1)


def semantic_attribute(
    text: str, cat: Catalog, embedder: Embedder, vector: np.ndarray | None = None, shape: str = ""
) -> str | None:
    """The attribute whose name is nearest in meaning to `text` (None below MIN_ATTRIBUTE_SIMILARITY);
    `shape` "numeric" / "text" keeps only attributes whose values are mostly numbers / not numbers."""
    names, vectors = _attribute_vectors(cat, embedder)
    if not names:
        return None
    q = vector if vector is not None else embedder.embed([text])[0]
    sims = vectors @ q
    if shape:
        keep = np.array([(_numeric_share(cat, n) >= 0.5) == (shape == "numeric") for n in names])
        sims = np.where(keep, sims, -1.0)
    best = int(np.argmax(sims))
    return names[best] if float(sims[best]) >= MIN_ATTRIBUTE_SIMILARITY else None


def asks_relationship(text: str) -> bool:
    """Whether `text` asks how two things are related ("how is X connected to Y"), and compares nothing."""
    return bool(_RELATION.search(text)) and not _COMPARE.search(text)


def asks_link(text: str) -> bool:
    """Whether `text` asks how two things are linked (`asks_relationship`) or whether they were together
    (`asks_together`)."""
    return asks_relationship(text) or asks_together(text)


def asks_together(text: str) -> bool:
    """Whether `text` is a yes/no question asking if two things were together ("has A ever worked with B",
    "did A act alongside B", "were A and B in a film together"): asked of the two named things' links,
    not of one's facts. The caller checks that two things are named."""
    return asks_yes_no(text) and bool(_TOGETHER.search(text)) and not _COMPARE.search(text)


def read(plan: QuestionPlan, masked: str, cat: Catalog, embedder: Embedder, names: tuple[str, ...] = ()) -> Reading:
    """The reading of a question (`masked`: the question with its linked names replaced by "X";
    `names`: those names, which never name the asked attribute)."""
    op = plan.operation
    asked_phrase = plan.asked
    name_words = {w.casefold() for name in names for w in re.findall(r"[^\W\d_]+", name)}
    asked_phrase = " ".join(w for w in asked_phrase.split() if re.sub(r"'s$", "", w.casefold()) not in name_words)
    certain = op in ("rank", "group", "compare", "count", "max", "min", "negation", "threshold", "average", "total")
    if _COMPARE.search(plan.question) and op != "threshold":  # "more than 3 movies" is a count to meet
        op, certain = "compare", True
    if not certain:
        typo = typo_operation(masked)  # names masked: "maya" is no typo of "many"
        if typo:
            op, certain = typo, True
        elif _RELATION.search(masked):
            op, certain = "relationship", True
    if not certain and _IMPERATIVE.match(masked) and (plan.plural or names_hubs(masked, cat)):
        op, certain = "list", True
    key_phrase = plan.sort_key or plan.group_key or ""
    if not key_phrase:
        by = re.search(
            r"\b(?:by|per|for each|over)\s+(?:their |the |its )?([a-z][\w\-]*(?: [a-z][\w\-]*)?)", masked.lower()
        )
        key_phrase = by.group(1) if by else ""
        if not key_phrase and re.search(r"\b(newest|oldest|latest|earliest|recent|chronolog)", masked, re.I):
            key_phrase = "year"
    hubs_asked = names_hubs(asked_phrase, cat) and not lexical_attribute(asked_phrase, cat, exact=True)
    lexical = None if hubs_asked else lexical_attribute(asked_phrase, cat)
    # "salary|income|wage": the first of a quantity's nouns the graph names ("who earns the most")
    key = next(filter(None, (lexical_attribute(k, cat) for k in key_phrase.split("|"))), None) if key_phrase else None
    hinted = _with_hint(masked)
    asked_text = agent_words(asked_phrase)  # "cast": also "acted actor", what predicate labels say
    wanted = ([masked] if not certain else []) + ([] if hubs_asked or lexical else [asked_text, hinted])
    wanted += [key_phrase] if key_phrase and key is None else []
    texts = list(dict.fromkeys(t for t in wanted if t))
    vectors = dict(zip(texts, embedder.embed(texts))) if texts else {}  # one batch for everything read by meaning
    if not certain:
        ops, ex = _exemplars(embedder)
        sims = ex @ vectors[masked]
        best = int(np.argmax(sims))
        if float(sims[best]) >= 0.55 and ops[best] not in ("list", "lookup"):
            op = ops[best]
        else:
            op = "list" if plan.plural else "lookup"
    asked: str | None
    if not asked_phrase and names and names_hubs(masked, cat) and op in ("list", "count", "rank", "group"):
        asked = None  # "list the X papers": the hubs themselves
    elif hubs_asked:
        asked = None  # "papers" names the hubs, not "paper class"
    else:
        asked = lexical
        if asked is None and asked_phrase:
            # "directors": the one attribute of the same stem ("directed_by"), where the words are not the label's
            stemmed = [a for a in cat.attributes() if share_a_stem(asked_phrase, a)]
            asked = stemmed[0] if len(stemmed) == 1 else None
        if asked is None and asked_phrase:
            # "manager": the one attribute whose object it names ("reports to"), where no label holds the word
            role = singular(asked_phrase.split()[-1].lower())
            roles = [a for a in cat.attributes() if role in object_roles(a)]
            asked = roles[0] if len(roles) == 1 else None
        headless = False  # "the imdb rating of X" where the graph holds no rating: nothing is asked of it
        if asked is None and asked_phrase:
            asked = semantic_attribute(asked_text, cat, embedder, vectors.get(asked_text))
            headless = asked is not None and _headless(asked_phrase, cat, embedder)
            asked = None if headless else asked
        if asked is None and not headless:
            asked = semantic_attribute(hinted, cat, embedder, vectors.get(hinted), shape=_shape(masked))
    if op not in ("rank", "group") and not (plan.sort_key or plan.group_key):
        key_phrase, key = "", None
    if key is None and key_phrase:
        key = semantic_attribute(key_phrase, cat, embedder, vectors.get(key_phrase))
    descending = plan.descending or bool(_NEWEST.search(masked))
    return Reading(op, asked, key, descending, certain)


def _headless(phrase: str, cat: Catalog, embedder: Embedder) -> bool:
    """Whether a noun phrase of several words ("imdb rating") was matched by a modifier alone: its head,
    the last word, names no attribute by itself (the graph holds no rating; "imdb" is only near the cast)."""
    words = phrase.split()
    if len(words) < 2 or lexical_attribute(words[-1], cat):
        return False
    return semantic_attribute(agent_words(words[-1]), cat, embedder) is None


def asks_inverse(masked: str, attribute: str) -> bool:
    """Whether `masked` (names as "X") asks for the subjects of `attribute` with X its object: its verb
    right after the question's subject and before X, not passive ("who *cites* X", "which papers cite
    X", "how many people report to X"; not "which papers are cited by X", "what does X cite")."""
    words = re.findall(r"[A-Za-z]+", masked)
    for i, w in enumerate(words):
        if w == "X" or not share_a_stem(w, attribute) or "X" not in words[i + 1 :]:
            continue
        lead = [v.lower() for v in words[max(0, i - 2) : i]]
        after = words[i + 1].lower() if i + 1 < len(words) else ""
        if after != "by" and any(v in ("who", "which", "what", "that", "many") for v in lead):
            return True
    return False
