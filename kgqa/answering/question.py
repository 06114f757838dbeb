"""What a question asks for, read from its structure: the operation, the asked phrase, sort and group
keys, the negated phrase, the sides of a comparison, and a declarative restatement to answer in.

Rules work on lower-cased words; keywords written with a typo ("decending", "alphabetcal") are read as
the keyword, and common synonyms ("sort", "arrange", "vs", "fewest") count alike."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from rapidfuzz.distance import DamerauLevenshtein

from kgqa.answering.words import WORD_NUMBERS, same_word
from kgqa.question.components import STOP_WORDS, VERB_FORMS

_KEYWORDS = """rank ranked ranking order ordered sort sorted arrange arranged descending ascending alphabetical
alphabetically reverse chronological compared comparison versus distributed distribution frequently
frequent often number different publication between without""".split()
#: Superlatives read through one slip ("quickst", "newset"), never from a comparative or a plural ("smaller",
#: "highs") that a looser match would take for one.
_SUPERLATIVE_KEYWORDS = """quickest fastest slowest cheapest shortest longest newest oldest earliest highest largest
smallest biggest tallest heaviest lightest""".split()
_TOKEN = re.compile(r"'[^']*'|\"[^\"]*\"|[\w\-]+|[^\w\s]")
_AUX = frozenset("is are was were has have had does do did".split())
_BOUNDARY = _AUX | frozenset(
    "that which who whom whose of in by for with from on at as among been before after since until during".split()
)
_QUOTED = re.compile(r"""'[^']{2,}'|"[^"]{2,}"|[“‘][^”’]{2,}[”’]""")

_RANK = re.compile(
    r"\b(rank|ranked|ranking|sort|sorted|order|ordered|arrange|arranged)\b|"
    r"\b(newest|latest|oldest|earliest|most recent) first\b|\bchronological"
    r"|\bfrom (?:the )?(?:newest|oldest|latest|earliest|most recent) to (?:the )?(?:newest|oldest|latest|earliest|most recent)\b"
)
#: Superlatives that rank hubs by one of their values: the words of the attribute ranked by, and whether
#: the top is the highest value (general English, not one graph's vocabulary).
_SUPERLATIVES = {
    "oldest": ("year", False),
    "earliest": ("year", False),
    "newest": ("year", True),
    "latest": ("year", True),
    "most recent": ("year", True),
    "longest": ("length duration pages runtime minutes", True),
    "shortest": ("length duration pages runtime minutes", False),
    "quickest": ("time duration minutes runtime length", False),
    "fastest": ("time duration minutes runtime length", False),
    "slowest": ("time duration minutes runtime length", True),
    "highest rated": ("rating", True),
    "best rated": ("rating", True),
    "top rated": ("rating", True),
    "lowest rated": ("rating", False),
    "worst rated": ("rating", False),
    "most expensive": ("price", True),
    "cheapest": ("price", False),
    "tallest": ("height", True),
    "heaviest": ("weight", True),
    "lightest": ("weight", False),
}
_COUNT_WORDS = r"\d{1,2}|two|three|four|five|six|seven|eight|nine|ten"
_SUPERLATIVE_WORDS = "|".join(k.replace(" ", r"[\s-]") for k in sorted(_SUPERLATIVES, key=len, reverse=True))
#: "the oldest movie", "the 3 newest papers", "the highest-rated song" (not "newest first"): the N hubs
#: first by the value the superlative names.
_TOP_BY_VALUE = re.compile(
    rf"(?:\b(?:the|top)\s+|^\s*)(?:({_COUNT_WORDS})\s+)?({_SUPERLATIVE_WORDS})\b"
    r"(?!\s+first\b)(?:\s+([a-z]+))?"
)
#: "which song has the highest rating", "the city with the largest population": the hubs by the named value.
_TOP_BY_NAMED = re.compile(
    rf"\b(?:has|have|had|with)\s+the\s+(?:({_COUNT_WORDS})\s+)?(highest|lowest|largest|smallest|biggest|greatest|longest|shortest)"
    r"\s+(?!number\b|amount\b|count\b)([a-z]+(?: [a-z]+)?)"
)
#: "the lowest calorie recipe", "the highest budget film": the hubs by the value a noun before the type names.
_TOP_BY_NOUN = re.compile(
    rf"\bthe\s+(?:({_COUNT_WORDS})\s+)?(highest|lowest|largest|smallest|biggest|greatest)[\s-]+"
    r"(?!number\b|amount\b|count\b|rated\b)([a-z]{3,})\s+([a-z]{3,})\b"
)
#: "top 3 movies by runtime", "the bottom five recipes by calories": the N hubs first by the value named
#: after "by" (highest first for "top"); "by number of" counts instead (`_TOP_BY`).
_TOP_N_BY = re.compile(
    rf"\b(top|bottom)\s+({_COUNT_WORDS})\s+([a-z][a-z\- ]*?)\s+by\s+(?:their\s+|its\s+|the\s+)?"
    r"(?!number\b|count\b|amount\b)([a-z]+(?: [a-z]+)?)\s*\??\s*$"
)
#: "who was hired most recently", "which film was released first": the hub first by the date the verb names.
_TOP_BY_WHEN = re.compile(
    r"\b(?:was|were|got|is|are)\s+(?:\w+\s+)?([a-z]{3,}ed)\s+(most\s+recently|most\s+recent|last|latest|first|earliest)\s*\??$"
)
_LEADING_COUNT = re.compile(rf"\s*(?:which|what|list|name|show|give me)\s+(?:the\s+)?({_COUNT_WORDS})\s+[a-z]")
_HIGH = frozenset({"highest", "largest", "biggest", "greatest", "longest"})
#: "a rating above 8", "with a length of more than 300": a number each hub states, compared.
_VALUE_OVER = re.compile(
    r"\b(?:an?|the|their|its)\s+([a-z]+(?: [a-z]+)?)\s+(?:of\s+)?(above|over|greater than|higher than|more than|"
    r"below|under|less than|lower than|at least|at most)\s+(\d+(?:\.\d+)?)\b(?!\s*[a-z])"
)
_DESC = re.compile(
    r"\b(descending|reverse|decreasing|newest first|latest first|most recent first|from (?:the )?(?:newest|latest|most recent)|"
    r"z to a|highest first|largest first)\b"
)
_ALPHA = re.compile(r"\balphabetic(al)?(ally)?\b|\ba to z\b|\bz to a\b|\bby (their )?(name|title)s?\b")
_ORDER_KEY = re.compile(
    r"\b(?:order|ordered|sorted|sort|ranked|rank|arranged|arrange)\b.*?\b(?:of|by)\s+"
    r"(?:their |its |the )?([a-z][a-z \-]*?)(?=[,.;?!]|$| in | from | and )"
)
_GROUP = re.compile(
    r"\b(?:per|for each|for every|each)\s+(?:the\s+)?([a-z][a-z\-]*(?: [a-z][a-z\-]*)?)|"
    r"\b(?:distributed|grouped|broken down|split)\s+(?:by|across|over|between|among)\s+"
    r"(?:their |its |the )?([a-z][a-z\-]*(?: [a-z][a-z\-]*)?)|\b(distribution)\b"
)
_COMPARE = re.compile(
    r"\b(compared (to|with)|in comparison (to|with)|versus|vs\.?|relative to|"
    r"as opposed to|than)\b"
)
#: "who directed more films, A or B", "which of A and B wrote fewer papers": a comparison of two named sides.
_MORE_OF_TWO = re.compile(
    r"^\s*(?:who|which|whom)\b(?:.*?\b(?:more|fewer|less)\b.*?\b(or|and)\b(?!.*\b(?:or|and)\b)"
    r"|\s+of\s+.+?\b(or|and)\b.+?\b(?:more|fewer|less)\b)"
)
_MAX = re.compile(
    r"\b(the most|most (frequent|frequently|often|common|commonly|popular|used)|highest number|"
    r"largest number|maximum|most)\b"
)
_MIN = re.compile(
    r"\b(the least|least (frequent|frequently|often|common|commonly|used)|fewest|rarest|"
    r"lowest number|smallest number|minimum|least)\b"
)
#: A noun of one or two words, up to the preposition after it ("salary" of "salary in engineering").
_NOUN_PHRASE = r"([a-z][a-z\-]*(?: (?!of\b|in\b|for\b|by\b|per\b|at\b|across\b|among\b|from\b|with\b)[a-z][a-z\-]*)?)"
#: "the average salary", "the mean rating of comedies", "the total budget" (not "the total number of"):
#: one number over the hubs' stated values; the noun of the value.
_SUMMARY = re.compile(
    r"\b(average|mean|avg|total|combined|sum of(?: the| their| all)?)\s+(?!(?:number|count|amount|by|of|to|that|it|in|for)\b)"
    + _NOUN_PHRASE
)
#: "the average number of authors per paper": the mean of the hubs' counts of a value.
_MEAN_COUNT = re.compile(r"\b(average|mean|avg)\s+number\s+of\s+" + _NOUN_PHRASE)
_COUNT = re.compile(r"\b(how many|how much|number of|how often|how frequently|count|total)\b")
_NEGATION = re.compile(r"\b(no|not|without|never|none|lack|lacking|lacks|missing)\b|n't\b")
_OPEN_RANGE = re.compile(
    r"\b(after|since|later than|newer than|before|earlier than|older than|prior to|until|till|up to)\s+"
    r"(?:the\s+(?:year\s+)?)?(\d{4})\b"
)
#: The auxiliary a yes/no question opens with ("did", "has", "is").
YES_NO_OPENING = re.compile(r"^\s*(does|do|did|is|are|was|were|has|have|had|can)\b", re.IGNORECASE)
#: "from the 90s", "in the 1990s", "2010s": a decade, read as its ten years.
_DECADE = re.compile(r"(?<![\w'])'?((?:1[89]|20)?\d)0'?s\b")
_RANGE = re.compile(r"\b(?:from|between)\s+(?:the\s+)?(?:[a-z]+\s+){0,3}?(\d{4})\s+(?:to|and|until|till|-)\s+(\d{4})\b")
_WH = re.compile(
    r"\b(?:(in|at|for|from|on|by|to)\s+)?(which|what|who|whom|how many|how much)\s+|"
    r"^()(list|name|give me|show me|show|find|return)\s+(?:all\s+|every\s+)?"
)
_ORDER_TAIL = re.compile(
    r"\s*,?\s*\b(ordered|sorted|ranked|arranged|(newest|oldest|latest|earliest|most recent) "
    r"first|from (oldest|newest))\b.*$",
    re.IGNORECASE,
)
_DETERMINERS = frozenset("a an the their its his her any no".split())
_NOUN_SKIP = frozenset(
    "the a an different distinct unique kind kinds type types most least frequent common popular".split()
)


@dataclass
class QuestionPlan:
    """The question read for answering."""

    question: str
    operation: str  # value|list|count|rank|max|min|compare|group|negation|threshold|average|total
    asked: str = ""  # the asked noun phrase ("evaluation methods"; "" when none)
    plural: bool = False
    yes_no: bool = False
    sort_key: str = ""  # phrase naming the sort key ("publication year"), "" = none
    alphabetical: bool = False
    descending: bool = False
    group_key: str = ""
    year_range: tuple[int, int] | None = None
    year_bound: tuple[str, int] | None = None  # ("after", 2000): years strictly after; also before, since, until
    negated: str = ""  # the phrase after the negation ("input data")
    prep: str = ""  # the preposition before the wh-word ("in which venue")
    lead: str = ""  # context written before the wh-phrase ("In the year 2021,")
    rest: str = ""  # the question after the asked phrase, original casing
    sides: tuple[str, str] = ("", "")  # text before and after the comparison word
    flags: dict[str, bool] = field(default_factory=dict)
    threshold: tuple[str, float] | None = None  # ("more", 3) in "which actors appear in more than 3 movies"
    counted: str = ""  # the noun the threshold counts ("movies")
    limit: int = 0  # "the *3* directors with the most movies", "top five genres": how many to name (0: the top)
    superlative: str = ""  # "the *longest* song", "the song with the *highest* rating": the top ones by a value


#: "more than 3 movies", "at least two authors": a count each answer must meet, and the noun counted.
_THRESHOLD = re.compile(
    r"\b(more than|over|at least|fewer than|less than|under|at most|exactly)\s+([a-z]+|\d+)\s+([a-z][a-z\-]*)"
)
_THRESHOLD_SIDE = {
    "more than": "more",
    "over": "more",
    "at least": "least",
    "fewer than": "fewer",
    "less than": "fewer",
    "under": "fewer",
    "at most": "most",
    "exactly": "exactly",
}
#: The sides of a threshold on a number a hub states ("a rating above 8"): a count's and the comparatives.
_VALUE_SIDE = _THRESHOLD_SIDE | {"above": "more", "greater than": "more", "higher than": "more"}
_VALUE_SIDE |= {"below": "fewer", "lower than": "fewer"}
#: Verbs whose comparison with a number names a quantity the hubs state ("earn more than 100000": the
#: salary), and the nouns a graph may call it (general English, tried in order).
_QUANTITY_VERBS = {
    "earn": "salary|income|wage|pay|earnings",
    "make": "salary|income|wage|pay|earnings",
    "cost": "price|cost",
    "weigh": "weight",
    "last": "length|duration|runtime",
    "run": "length|duration|runtime",
    "score": "score|rating|points",
}
_QUANTITY_VERB_FORMS = {
    form: verb for verb in _QUANTITY_VERBS for form in (verb, verb + "s", verb + "ed", verb + "ing", verb + "d")
} | {"made": "make", "making": "make", "ran": "run", "running": "run", "scoring": "score"}
_VERB_MOST = re.compile(
    r"\b(earn|earns|earned|make|makes|made|cost|costs|weigh|weighs|last|lasts|run|runs|score|scores|scored)"
    r"\s+the\s+(most|least)\b\s*\??$"
)
_VERB_OVER = re.compile(
    r"\b(earn|earns|earned|earning|make|makes|made|making|cost|costs|costing|weigh|weighs|weighing|last|lasts|"
    r"run|runs|score|scores|scored)\s+(above|over|greater than|higher than|more than|below|under|less than|"
    r"lower than|at least|at most)\s+\$?(\d+(?:\.\d+)?)\b(?!\s*[a-z])"
)
#: Each side of a threshold in words, as answers write it.
THRESHOLD_PHRASE = {
    "more": "more than",
    "least": "at least",
    "fewer": "fewer than",
    "most": "at most",
    "exactly": "exactly",
}
#: Openings that ask for the things meeting a count ("which", "what", "who", "list", ...).
_ASKS_WHICH = re.compile(
    r"^\W*(?:which|what|who|list|name|show|give me|find)\b"
    r"|^\s*(?:all\s+|the\s+)?(?:[a-z][\w\-]*\s+)?[a-z][\w\-]*[a-rt-z]s\s+(?:with|that|which|having)\b"  # "packages with ..."
)
_HOW_MANY_OPENING = re.compile(r"^\W*how many\b")


def _count_of(word: str) -> int | None:
    """A count written in digits or words ("3", "three"), or None."""
    return int(word) if word.isdigit() else WORD_NUMBERS.get(word)


#: "give me 5 movies", "list three books by X", "name 2 films": as many as the question asks for.
_SOME = re.compile(rf"^\W*(?:list|name|show(?: me)?|give me|find|tell me)\s+(?:any\s+)?({_COUNT_WORDS})\s+[a-z]", re.I)


def asked_number(question: str) -> int | None:
    """How many things an imperative list asks for ("give me 5 movies": 5), or None (all of them); not a
    superlative's top N ("list the 3 newest movies"), which ranks."""
    some = _SOME.match(question)
    if some is None or _TOP_BY_VALUE.search(question.lower()):
        return None
    return _count_of(some.group(1).lower())


def meets_threshold(n: float, threshold: tuple[str, float]) -> bool:
    """Whether a count (or a stated number) `n` meets the question's threshold (("more", 3): n > 3)."""
    side, k = threshold
    return {"more": n > k, "least": n >= k, "fewer": n < k, "most": n <= k, "exactly": n == k}[side]


_HOW_MANY = re.compile(r"\b(?:how|hw|hoe|hiw|hwo)\s+(?:many|mny|manny|meny|amny|mnay)\b", re.IGNORECASE)


def fix_how_many(question: str) -> str:
    """ "hw many", "how mny" -> "how many" (too short for the typo-tolerant keyword match)."""
    return _HOW_MANY.sub("how many", question)


def normalise(question: str) -> str:
    """Lower case, one space, keywords written with a typo replaced by the keyword."""
    out = []
    for tok in question.lower().split():
        core = tok.strip("?,.;:!()")
        if len(core) >= 5 and core not in _KEYWORDS and core not in _QUANTITY_VERB_FORMS and core.isalpha():
            # a typo keeps the first letter: "frank" is a name, not "rank" misspelt
            hit = next((k for k in _KEYWORDS if k[0] == core[0] and same_word(core, k)), None) or next(
                (k for k in _SUPERLATIVE_KEYWORDS if _one_slip_from(core, k)), None
            )
            if hit:
                tok = tok.replace(core, hit)
        out.append(tok)
    return " ".join(out)


def _one_slip_from(word: str, keyword: str) -> bool:
    """Whether `word` is `keyword` with one letter missing, added, changed or two swapped, its first three
    letters kept, and no comparative or plural ("quickst", not "quicker" or "highs")."""
    return (
        word[:3] == keyword[:3]
        and not word.endswith(("er", "ers", "s", "ens"))
        and DamerauLevenshtein.distance(word, keyword) == 1
    )


def analyse(question: str) -> QuestionPlan:
    """The operation and its parameters for `question`."""
    question = fix_how_many(question)
    text = normalise(question)
    unquoted = _QUOTED.sub(" 'x' ", text)
    plan = QuestionPlan(question, "value")
    prep, asked, rest, lead = _asked(question)
    plan.prep, plan.asked, plan.rest, plan.lead = prep, asked, rest, lead
    plan.plural = bool(asked) and asked.split()[-1].endswith("s") and not asked.endswith(("ss", "us"))
    plan.yes_no = asks_yes_no(unquoted) and not asked
    rng = _RANGE.search(unquoted)
    decade = _DECADE.search(unquoted)
    if rng:
        lo, hi = sorted((int(rng.group(1)), int(rng.group(2))))
        plan.year_range = (lo, hi)
    elif decade:
        plan.year_range = _decade_years(decade.group(1))
    else:
        plan.year_bound = _year_bound(unquoted)
    group = _GROUP.search(unquoted)
    neg = _NEGATION.search(unquoted)
    if neg:
        plan.negated = _phrase_after(unquoted, neg.end())
    compared = _COMPARE.search(unquoted)
    which_more = _MORE_OF_TWO.match(unquoted)
    cut = compared.span() if compared else None
    if which_more and not compared:
        cut = which_more.span(1 if which_more.group(1) else 2)  # "who directed more films, A or B": at "or"
    over = _THRESHOLD.search(unquoted)
    counted_first = _LEADING_COUNT.match(unquoted)  # "which 3 songs ...": the count the top N asks for
    leading = _count_of(counted_first.group(1)) if counted_first else None
    how_many = _HOW_MANY_OPENING.match(unquoted)
    if over and (_ASKS_WHICH.match(unquoted) or how_many) and _count_of(over.group(2)) is not None:
        # "which actors appear in more than 3 movies", "list papers with at least two authors", "how many
        # papers have more than 3 authors" (then counted)
        plan.operation = "threshold"
        plan.threshold = (_THRESHOLD_SIDE[over.group(1)], _count_of(over.group(2)) or 0)
        plan.counted = over.group(3)
        plan.flags["count"] = bool(how_many)
    elif (value_over := _VALUE_OVER.search(unquoted) or _VERB_OVER.search(unquoted)) and (
        _ASKS_WHICH.match(unquoted) or how_many
    ):
        # "which songs have a rating above 8", "who earns more than 100000": the hubs whose stated number
        # meets it
        plan.operation = "threshold"
        number = float(value_over.group(3))
        plan.threshold = (_VALUE_SIDE[value_over.group(2)], int(number) if number.is_integer() else number)
        verb = _QUANTITY_VERB_FORMS.get(value_over.group(1), value_over.group(1)) if value_over.re is _VERB_OVER else ""
        plan.counted = _QUANTITY_VERBS.get(verb) or value_over.group(1)
        plan.flags["count"] = bool(how_many)
        plan.flags["value_over"] = True
    elif (earns := _VERB_MOST.search(unquoted)) and (_ASKS_WHICH.match(unquoted) or unquoted.startswith("who")):
        # "who earns the most", "which song costs the least": the hub first by the number the verb names
        plan.operation, plan.flags["top"], plan.flags["named_value"] = "rank", True, True
        plan.limit = leading or 1
        plan.sort_key = _QUANTITY_VERBS[_QUANTITY_VERB_FORMS[earns.group(1)]]
        plan.descending = earns.group(2) == "most"
        plan.superlative = "highest" if plan.descending else "lowest"
    elif when := _TOP_BY_WHEN.search(unquoted):
        plan.operation, plan.flags["top"], plan.sort_key = "rank", True, "year"
        plan.limit = leading or 1  # "which 2 employees were hired first"
        word = re.sub(r"\s+", " ", when.group(2))
        plan.descending = word not in ("first", "earliest")
        plan.superlative, plan.flags["after_noun"] = f"{when.group(1)} {word}", True  # "the employee hired first"
    elif (summary := _MEAN_COUNT.search(unquoted) or _SUMMARY.search(unquoted)) and not _HOW_MANY_OPENING.match(
        unquoted
    ):
        # "what is the average salary in engineering", "the total runtime of X's films"
        plan.operation = "total" if summary.group(1).startswith(("total", "combined", "sum")) else "average"
        plan.counted = summary.group(2)
    elif top_n := _TOP_N_BY.search(unquoted):
        plan.operation, plan.flags["top"], plan.flags["named_value"] = "rank", True, True
        plan.limit = _count_of(top_n.group(2)) or 1
        plan.descending = top_n.group(1) == "top"
        plan.superlative = "highest" if plan.descending else "lowest"
        plan.asked, plan.sort_key = top_n.group(3), top_n.group(4)
    elif (
        top := _TOP_BY_VALUE.search(unquoted) or _TOP_BY_NAMED.search(unquoted) or _TOP_BY_NOUN.search(unquoted)
    ) and not _RANK.search(unquoted):
        # "what is the oldest movie", "the 3 newest papers", "which song has the highest rating"
        plan.operation = "rank"
        word = re.sub(r"[\s-]+", " ", top.group(2))
        plan.superlative = word
        plan.flags["top"] = True
        plan.limit = _count_of(top.group(1) or "") or leading or 1  # "which 3 songs have the highest rating"
        if top.re is _TOP_BY_VALUE:
            plan.sort_key, plan.descending = _SUPERLATIVES[word]
            if (set(word.split()) & set(plan.asked.split()) or not plan.asked) and top.group(3):
                plan.asked = top.group(3)  # "list the 3 newest movies", "the highest rated song"
        else:
            plan.sort_key, plan.descending = top.group(3), word in _HIGH
            plan.flags["named_value"] = True  # "the song with the highest rating"
            if top.re is _TOP_BY_NOUN:
                plan.asked = top.group(4)  # "the lowest calorie recipe": the recipes by their calories
    elif _RANK.search(unquoted):
        plan.operation = "rank"
        plan.descending = bool(_DESC.search(unquoted))
        plan.alphabetical = bool(_ALPHA.search(unquoted))
        key = _ORDER_KEY.search(unquoted)
        plan.sort_key = (
            ""
            if plan.alphabetical or not key
            else re.sub(
                r"(\s+(ascending|descending|reverse|order|first|increasing|decreasing))+$", "", key.group(1).strip()
            )
        )
        if not plan.sort_key and re.search(r"\b(newest|latest|oldest|earliest|most recent|chronological)", unquoted):
            plan.sort_key = "year"
        if re.search(r"\b(newest|latest|most recent) first\b", unquoted):
            plan.descending = True
    elif group and not cut:
        plan.operation = "group"
        plan.group_key = next((g for g in group.groups() if g), "")
        # "how many employees does each department have": "department", not "department have"
        plan.group_key = re.sub(r"\s+(?:have|has|had|do|does|did|get|gets|got|hold|holds)$", "", plan.group_key)
        if plan.group_key == "distribution":
            tail = re.search(
                r"\b(?:by|per|across|over|of)\s+(?:their |its |the )?([a-z][a-z\-]*(?: [a-z]+)?)",
                unquoted[group.end() :],
            )
            plan.group_key = tail.group(1) if tail else ("year" if plan.year_range else "")
        if plan.year_range and not re.search(r"[a-z]", plan.group_key.replace("year", "").strip()):
            plan.group_key = plan.group_key or "year"
    elif cut:
        plan.operation = "compare"
        plan.sides = (
            question[: _orig_index(question, unquoted, cut[0])],
            question[_orig_index(question, unquoted, cut[1]) :],
        )
        plan.flags["count"] = bool(_COUNT.search(unquoted))
    elif _MIN.search(unquoted) and not _MAX.search(unquoted.replace("at least", "")):
        plan.operation = "min"
    elif _MAX.search(unquoted) and not re.search(r"\bmost recent\b", unquoted):
        plan.operation = "max"
    elif _COUNT.search(unquoted):
        plan.operation = "count"
    elif neg:
        plan.operation = "negation"
    elif plan.plural:
        plan.operation = "list"
    _read_limit(plan, unquoted)
    return plan


#: "which 3 directors", "the five actors", "top 10 genres": how many of the top ones the question asks for.
_LIMIT = re.compile(r"^(?:top\s+)?(\d{1,2}|[a-z]+)\s+(.+)$")
#: "top 3 directors by number of films": the ones with the most, counted by what follows "number of".
_TOP_BY = re.compile(r"\btop\s+(\d{1,2}|[a-z]+)\s+([a-z][a-z\- ]*?)\s+by\s+(?:the\s+)?(?:number|count)\s+of\b")


def _read_limit(plan: QuestionPlan, unquoted: str) -> None:
    """Where the question asks for the top N of a ranking by count, the N (`plan.limit`), taken out of
    the asked phrase ("3 directors": "directors"); "top N X by number of Y" asks for the most."""
    if plan.flags.get("top"):
        return  # "the 3 newest movies": read with the superlative
    top_by = _TOP_BY.search(unquoted)
    if top_by and _count_of(top_by.group(1)):
        plan.asked, plan.operation, plan.limit = top_by.group(2), "max", _count_of(top_by.group(1)) or 0
        return
    limited = _LIMIT.match(plan.asked)
    n = _count_of(limited.group(1)) if limited else None
    if limited and n and n > 1:
        plan.asked = limited.group(2)  # "list 3 papers": papers
        plan.limit = n if plan.operation in ("max", "min") else 0


def asks_yes_no(text: str) -> bool:
    """Whether `text` opens as a yes/no question ("is", "does", "can", ...)."""
    return YES_NO_OPENING.match(text) is not None


def _decade_years(digits: str) -> tuple[int, int]:
    """ "199" -> (1990, 1999); "9" ("the 90s") -> (1990, 1999); "2" ("the 20s") -> (2020, 2029), a decade
    of two digits being this century's where it has begun."""
    if len(digits) == 3:
        start = int(digits) * 10
    else:
        start = 2000 + int(digits) * 10
        if start > date.today().year:
            start -= 100
    return start, start + 9


def _year_bound(text: str) -> tuple[str, int] | None:
    """ "released after 2000" -> ("after", 2000); "since 2019" -> ("since", 2019); None without one."""
    m = _OPEN_RANGE.search(text)
    if not m:
        return None
    word = {"later than": "after", "newer than": "after", "earlier than": "before"}.get(m.group(1))
    word = word or {"older than": "before", "prior to": "before", "till": "until", "up to": "until"}.get(m.group(1))
    return (word or m.group(1)), int(m.group(2))


def year_in_bound(year: int, bound: tuple[str, int]) -> bool:
    """Whether `year` meets a bound read by `analyse` ("after 2000": 2001 and later)."""
    word, edge = bound
    return {"after": year > edge, "since": year >= edge, "before": year < edge}.get(word, year <= edge)


def _orig_index(question: str, unquoted: str, index: int) -> int:
    """Map an index in the quote-masked text back to the question, by the number of words before it
    (a quoted title is one word in both)."""
    words_before = len(unquoted[:index].split())
    tokens = list(re.finditer(r"'[^']{2,}'|\"[^\"]{2,}\"|\S+", question))
    if words_before >= len(tokens):
        return len(question)
    return tokens[words_before].start() if words_before else 0


def _phrase_after(text: str, index: int) -> str:
    """Up to four content words after `index` ("no input data was used" -> "input data")."""
    words: list[str] = []
    for w in re.findall(r"[a-z][a-z\-]*", text[index:]):
        if w in _AUX or w in (
            "been",
            "used",
            "any",
            "an",
            "a",
            "the",
            "to",
            "that",
            "which",
            "and",
            "or",
            "with",
            "by",
            "in",
            "of",
            "for",
            "on",
            "at",
            "as",
            "from",
        ):
            if words:
                break
            continue
        if w in VERB_FORMS or w in ("adhering", "applied", "using", "used", "use", "uses", "apply", "have", "has"):
            if words:
                break
            continue
        words.append(w)
        if len(words) == 4:
            break
    return " ".join(words)


def _lead(first: str, start: int) -> str:
    """The context before the wh-phrase when it ends in a comma ("Among papers that ..., ")."""
    lead = first[:start].strip()
    return lead if lead.endswith(",") else ""


def _asked(question: str) -> tuple[str, str, str, str]:
    """(preposition, asked noun phrase, the rest of the question, lead) for the first wh-phrase."""
    q = question.strip().rstrip("?").strip()
    first = re.split(r"(?<=[?.])\s+", question.strip())[0].rstrip("?.").strip()
    often = re.search(r"(?i)\bhow\s+(?:often|frequently|many\s+times)\s+(.*)", first)
    if often:
        return "", "", often.group(1), _lead(first, often.start())
    m = _WH.search(first.lower())
    if not m:
        how = re.search(r"(?i)\bhow\s+(?:are|is|were|was)\s+(?:the\s+)?(.*)", first)
        if how:
            words = how.group(1).split()
            return "", words[0] if words else "", " ".join(words[1:]), _lead(first, how.start())
        head = (
            re.match(r"\s*(?:all\s+|the\s+)?([A-Za-z][a-z\-]*[a-rt-z]s)\b", first)
            or _KEYWORD_HEAD.match(first)
            or _KEYWORDS_ONLY.match(first)
        )
        if head and not set(head.group(1).lower().split()) & (STOP_WORDS | VERB_FORMS | _AUX):
            # "movies released after 2020", "horror movies from the 80s", typed without a question word:
            # a list of what it names
            return "", head.group(1).lower(), _ORDER_TAIL.sub("", first[head.end() :].strip()), ""
        return "", "", q, ""
    prep = m.group(1) or ""
    if m.group(4):  # "list the papers of X ...": the rest is the asked phrase and its qualifiers
        m = re.match(r"", "")  # (no preposition)
        tokens = list(re.finditer(r"'[^']*'|\"[^\"]*\"|[\w\-]+", first))
        start = next(
            (
                k
                for k, t in enumerate(tokens)
                if t.group().lower()
                not in ("list", "name", "give", "show", "me", "find", "return", "all", "every", "the")
            ),
            len(tokens),
        )
        # "list the *five actors* ...": a count before the noun goes with it
        width = 2 if start + 1 < len(tokens) and _count_of(tokens[start].group().lower()) else 1
        noun = [t.group() for t in tokens[start : start + width]]
        rest = first[tokens[start + width - 1].end() :].strip() if start < len(tokens) else ""
        rest = _ORDER_TAIL.sub("", rest)
        return "", " ".join(noun).lower(), rest, ""
    tokens = list(re.finditer(r"'[^']*'|\"[^\"]*\"|[\w\-]+", first[m.end() :]))
    noun = []
    i = 0
    if m.group(2) in ("which", "what") and tokens and tokens[0].group().lower() in ("is", "are", "was", "were"):
        i = 1  # "what are the ..."
    elif m.group(2) == "which" and len(tokens) > 1 and tokens[0].group().lower() == "of":
        i = 1  # "which of the movies directed by X ...": the movies
    if m.group(2) == "who" and tokens and tokens[0].group().lower() in ("is", "are", "was", "were"):
        i = 1
    elif m.group(2) == "who" and _perfect(tokens):
        # "who has acted in the most films": the participle after "has" is the verb asked about
        rest = _ORDER_TAIL.sub("", first[m.end() + tokens[1].end() :].strip())
        return prep, tokens[1].group().lower(), rest, _lead(first, m.start())
    elif m.group(2) == "who" and tokens and tokens[0].group().isalpha() and _asked_verb(tokens[0].group().lower()):
        # "who directed cold orchard": "who" is the subject, so the next word is the verb that is asked
        # about, never the start of a noun phrase, whatever the casing of the words after it
        rest = _ORDER_TAIL.sub("", first[m.end() + tokens[0].end() :].strip())
        return prep, tokens[0].group().lower(), rest, _lead(first, m.start())
    while i < len(tokens):
        w = tokens[i].group()
        lw = w.lower()
        if lw in _NOUN_SKIP and not noun:
            i += 1
            continue
        if lw in _BOUNDARY or lw in VERB_FORMS or w.startswith(("'", '"')) or lw.endswith("ed") and noun:
            break
        nxt = tokens[i + 1].group() if i + 1 < len(tokens) else ""
        if noun and (nxt.lower() in _DETERMINERS or nxt.startswith(("'", '"')) or nxt[:1].isupper()):
            break  # "which papers cite 'X'", "which papers use a ...": the word is the verb
        if lw in ("most", "least", "frequent", "common"):
            i += 1
            continue
        noun.append(w)
        i += 1
        if len(noun) == 4:
            break
    if noun and noun[0].lower() == "number" and i < len(tokens) and tokens[i].group().lower() == "of":
        return (*_asked_number(first, m, tokens, i), _lead(first, m.start()))
    start = m.end() + (tokens[i].start() if i < len(tokens) else len(first[m.end() :]))
    rest = _ORDER_TAIL.sub("", first[start:].strip())
    return prep, " ".join(noun).lower(), rest, _lead(first, m.start())


#: A plural noun after one or two words that describe it, then what keeps the list ("horror movies *from*
#: the 80s", "french comedies *released* after 2000"); a title with a plural word ("glass letters cast") has
#: no such word after it.
_KEYWORD_HEAD = re.compile(
    r"\s*(?:all\s+|the\s+)?((?:[A-Za-z][\w\-]*\s+){1,2}[A-Za-z][a-z\-]*[a-rt-z]s)\s+(?=(?:from|in|of|by|with|"
    r"released|made|directed|written|starring|after|before|since|during|between|that|which)\b)",
    re.IGNORECASE,
)


#: Only a plural noun and the words that describe it ("gluten free mexican recipes"): a list of what it names.
_KEYWORDS_ONLY = re.compile(r"\s*(?:all\s+|the\s+)?((?:[A-Za-z][\w\-]*\s+){1,3}[A-Za-z][a-z\-]*[a-rt-z]s)\s*$")


def _asked_verb(word: str) -> bool:
    """Whether the word after "who" is the verb asked about ("who *wrote* the most films"), not one of the
    general verbs that name no role of their own ("who *published* the most papers", "who *makes* ...")."""
    return word not in VERB_FORMS or word in _ROLE_VERBS


#: Of the general verbs, those that name one role ("wrote": the writer).
_ROLE_VERBS = frozenset({"wrote", "written", "writes"})


def _perfect(tokens: list[re.Match]) -> bool:
    """Whether the words after "who" are "has" / "have" / "had" and a participle ("has acted"), not "has"
    as a verb of its own ("who has the highest salary", "who has more than 3 films")."""
    if len(tokens) < 2 or tokens[0].group().lower() not in ("has", "have", "had"):
        return False
    verb = tokens[1].group().lower()
    return verb.isalpha() and verb.endswith(("ed", "en", "wn")) or verb in _PARTICIPLES


#: Irregular participles that may follow "who has" ("who has won the most awards").
_PARTICIPLES = frozenset("won made written taught led built held sung drawn taken given run played".split())


def _asked_number(first: str, m: re.Match, tokens: list, i: int) -> tuple[str, str, str]:
    """ "the number of papers investigating ..." -> ("", "papers", "investigating ...")."""
    j = i + 1
    noun = []
    while (
        j < len(tokens)
        and tokens[j].group().lower() not in _BOUNDARY
        and tokens[j].group().lower() not in VERB_FORMS
        and not tokens[j].group().lower().endswith("ing")
    ):
        noun.append(tokens[j].group())
        j += 1
    start = m.end() + (tokens[j].start() if j < len(tokens) else len(first[m.end() :]))
    return "", " ".join(noun).lower(), first[start:].strip()
