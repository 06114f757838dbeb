"""General English about verbs that every question reader shares (no graph's vocabulary): the agent
nouns predicate labels usually use for a verb, and the stems that make "wrote", "written" and "writer"
one word."""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Verbs whose agent noun is what predicate labels usually say (general English, not one graph's).
AGENT_NOUNS = {
    **dict.fromkeys(
        "act acted acting acts actor actors actress star starred starring stars play played plays appear appeared "
        "appears feature featured features featuring perform performed cast".split(),
        "acted actor cast",
    ),
    **dict.fromkeys(
        "write wrote written writes scripted penned screenwriter scriptwriter script scripts screenplay screenplays".split(),
        "writer author",
    ),
    **dict.fromkeys("direct directed directs directing helmed".split(), "director"),
    **dict.fromkeys(
        "make made makes making create created creates".split(), "creator director author artist maker manufacturer"
    ),
    **dict.fromkeys("publish published publishes".split(), "author"),
    **dict.fromkeys("describe describes described".split(), "tags"),
    **dict.fromkeys("release released come came".split(), "release"),
    **dict.fromkeys("speak spoken speaks".split(), "language"),
    **dict.fromkeys("rate rated rates".split(), "rating score"),
    **dict.fromkeys("found founded founds co-founded cofounded start started starts".split(), "founder"),
    **dict.fromkeys("run runs ran running head heads headed lead leads led".split(), "chief executive head leader"),
    **dict.fromkeys("own owns owned".split(), "owner"),
    **dict.fromkeys("manage manages managed".split(), "manager"),
    **dict.fromkeys("invent invents invented".split(), "inventor"),
    **dict.fromkeys("design designs designed".split(), "designer"),
    **dict.fromkeys("develop develops developed".split(), "developer"),
    **dict.fromkeys("produce produces produced".split(), "producer"),
    **dict.fromkeys("compose composes composed".split(), "composer"),
    **dict.fromkeys("paint paints painted".split(), "painter"),
    # nouns for where someone works ("what institution is X at": the affiliation)
    **dict.fromkeys("institution institutions employer employers workplace".split(), "affiliation employer"),
    # nouns that ask for a category or for what a thing is about
    **dict.fromkeys(
        "type types kind kinds sort sorts category categories style styles".split(), "genre category class"
    ),
    **dict.fromkeys(
        "words word keywords keyword topics topic terms term themes theme subjects about tagged".split(), "tag keyword"
    ),
}

#: Verbs whose object noun is what predicate labels usually say, for questions that ask for the object
#: ("what does X make": its products; "who made X" asks for the agent instead).
OBJECT_NOUNS = {
    **dict.fromkeys("make makes made making manufacture manufactures sell sells sold".split(), "product products"),
}

#: Verbs whose place noun is what predicate labels usually say, for questions that ask "where" ("where was
#: X published": its venue, not its author; "where was X born": the birthplace).
PLACE_NOUNS = {
    **dict.fromkeys(
        "publish published publishes present presented appear appeared".split(), "venue journal conference"
    ),
    **dict.fromkeys("born".split(), "birthplace place of birth"),
    **dict.fromkeys("die died".split(), "place of death"),
    **dict.fromkeys("film filmed shoot shot".split(), "filming location"),
    **dict.fromkeys("study studied educated".split(), "education university alma mater"),
    **dict.fromkeys("work works worked employed".split(), "employer workplace affiliation institution"),
    **dict.fromkeys("headquartered".split(), "headquarters location"),
}

#: Words of a predicate label that say where someone or something is *from* ("born in", "country of origin").
ORIGIN_WORDS = frozenset({"born", "birth", "birthplace", "origin", "hometown", "nationality", "native", "citizenship"})

#: Irregular forms and the verb they are a form of.
_IRREGULAR = {
    **dict.fromkeys("wrote written".split(), "write"),
    # "acted" ~ "starred actors": the verb read as its agent noun (the noun's five letters are the stem)
    **dict.fromkeys("act acts acted acting actress actresses".split(), "actor"),
    **dict.fromkeys("made".split(), "make"),
    **dict.fromkeys("sang sung".split(), "sing"),
    **dict.fromkeys("drew drawn".split(), "draw"),
    **dict.fromkeys("took taken".split(), "take"),
    **dict.fromkeys("gave given".split(), "give"),
    **dict.fromkeys("won".split(), "win"),
    **dict.fromkeys("led".split(), "lead"),
    **dict.fromkeys("built".split(), "build"),
    **dict.fromkeys("taught".split(), "teach"),
    **dict.fromkeys("held".split(), "hold"),
    **dict.fromkeys("spoke spoken".split(), "speak"),
    **dict.fromkeys("began begun".split(), "begin"),
    **dict.fromkeys("founded found".split(), "found"),
    **dict.fromkeys("came".split(), "come"),
}
_WORD = re.compile(r"[a-z]+")

#: The noun for the one who does what a relation's verb says, for naming an edge read backwards
#: (`Person -DIRECTED-> Movie` read from the movie: its "director"). Base form -> noun; the -s, -ed /
#: -d and -ing forms are derived, irregular pasts listed. Verbs whose doer has no usual noun are left out.
_DOERS = {
    "act": "actor",
    "star": "actor",
    "direct": "director",
    "write": "writer",
    "author": "author",
    "produce": "producer",
    "compose": "composer",
    "create": "creator",
    "edit": "editor",
    "found": "founder",
    "own": "owner",
    "manage": "manager",
    "invent": "inventor",
    "design": "designer",
    "develop": "developer",
    "paint": "painter",
    "publish": "publisher",
    "perform": "performer",
    "sing": "singer",
    "narrate": "narrator",
    "illustrate": "illustrator",
    "translate": "translator",
    "review": "reviewer",
    "teach": "teacher",
    "lead": "leader",
    "coach": "coach",
    "advise": "advisor",
    "supervise": "supervisor",
    "fund": "funder",
    "sponsor": "sponsor",
    "build": "builder",
    "make": "maker",
    "invest": "investor",
    "distribute": "distributor",
    "manufacture": "manufacturer",
    "operate": "operator",
    "organize": "organizer",
    "organise": "organiser",
    "host": "host",
    "sell": "seller",
    "buy": "buyer",
    "win": "winner",
    "employ": "employer",
    "study": "student",
    "photograph": "photographer",
    "choreograph": "choreographer",
    "conduct": "conductor",
    "curate": "curator",
    "maintain": "maintainer",
    "contribute": "contributor",
    "train": "trainer",
}
#: Irregular forms of `_DOERS` verbs that `_IRREGULAR` (which `base_form` reads) does not list.
_DOER_PASTS = {"sold": "sell", "bought": "buy", "studied": "study", "starred": "star", "starring": "star"}
#: Nouns for a role that "<noun> of" names the subject as ("author of", "member of").
_ROLE_NOUNS = frozenset(_DOERS.values()) | frozenset(
    "member parent child citizen employee resident friend spouse sibling fan head chair".split()
)
_AUXILIARY_START = frozenset({"is", "was", "are", "were", "been"})  # not "has": "has author" names the object
#: Verbs whose doer is still the subject when a preposition follows ("acted in", "studied at"); for the
#: others a preposition marks the passive or a place ("written by", "published in", "founded in").
_DOERS_BEFORE_PREPOSITION = frozenset({"act", "star", "study", "perform", "sing", "invest", "teach", "coach"})


def _doer_base(word: str) -> str | None:
    """The `_DOERS` verb that `word` is a form of ("directed", "directs", "directing" -> "direct")."""
    for base in (word, base_form(word), _DOER_PASTS.get(word, "")):  # "wrote", "taught": base_form
        if base in _DOERS:
            return base
    for ending in ("ing", "ed", "d", "es", "s"):
        if word.endswith(ending):
            stem = word[: -len(ending)]
            for base in (stem, stem + "e"):
                if base in _DOERS:
                    return base
    return None


def passive_doer(label: str) -> str | None:
    """The doer a label in the passive names its object as: "written by" -> "writer", "published by" ->
    "publisher"; None for any other label."""
    words = _WORD.findall(label.lower())
    return agent_noun(words[0]) if len(words) == 2 and words[1] == "by" else None


#: Nouns people use for the one a relation names as its object, where the verb has no doer noun for it
#: (general English): "X reports to Y": Y is X's manager.
_OBJECT_ROLES = {
    ("report", "to"): frozenset({"manager", "boss", "supervisor", "superior"}),
    ("married", "to"): frozenset({"spouse", "husband", "wife", "partner"}),
    ("work", "for"): frozenset({"employer"}),
    ("child", "of"): frozenset({"parent", "father", "mother"}),
    ("son", "of"): frozenset({"parent", "father", "mother"}),
    ("daughter", "of"): frozenset({"parent", "father", "mother"}),
    ("parent", "of"): frozenset({"child", "son", "daughter"}),
}


def object_roles(label: str) -> frozenset[str]:
    """The nouns for the one a two-word relation label names as its object ("reports to" -> manager, boss,
    supervisor, superior; "married to" -> spouse, husband, wife); empty for any other label."""
    words = _WORD.findall(label.lower())
    if len(words) != 2:
        return frozenset()
    verb = words[0][:-1] if words[0].endswith("s") and (words[0][:-1], words[1]) in _OBJECT_ROLES else words[0]
    return _OBJECT_ROLES.get((verb, words[1]), frozenset())


def agent_noun(label: str) -> str | None:
    """The noun for the one a relation label's verb names as the doer, or None where there is no usual
    one: "directed" -> "director", "WROTE" read as "wrote" -> "writer", "acted in" -> "actor", "author
    of" -> "author"."""
    words = _WORD.findall(label.lower())
    while words and words[0] in _AUXILIARY_START:
        words = words[1:]
    if not words:
        return None
    if len(words) == 2 and words[1] == "of" and words[0] in _ROLE_NOUNS:
        return words[0]  # "author of", "member of": the noun itself
    base = _doer_base(words[0])
    if base is None:
        return None
    followed = len(words) > 1
    return _DOERS[base] if not followed or base in _DOERS_BEFORE_PREPOSITION and words[1] != "by" else None


def base_form(word: str) -> str:
    """An irregular verb form as its verb ("wrote", "written" -> "write"; "acted" -> "actor"), else `word`."""
    return _IRREGULAR.get(word, word)


def stems(text: str, length: int = 5) -> set[str]:
    """The first `length` letters of each word of four or more letters, irregular forms read as their
    verb: "written", "wrote", "writer" -> "write"; "directed", "director" -> "direc"."""
    out = set()
    for w in _WORD.findall(text.lower()):
        w = base_form(w)
        if len(w) >= 4:
            out.add(w[:length])
    return out


def share_a_stem(a: str, b: str) -> bool:
    """Whether a word of `a` and a word of `b` share a stem, or one's stem is inside the other's word:
    "write" ~ "screenwriter", "directed" ~ "director", "wrote" ~ "written"."""
    a_stems, b_stems = stems(a), stems(b)
    if a_stems & b_stems:
        return True
    a_words = [base_form(w) for w in _WORD.findall(a.lower()) if len(w) >= 5]
    b_words = [base_form(w) for w in _WORD.findall(b.lower()) if len(w) >= 5]
    return any(s in w for s in a_stems for w in b_words) or any(s in w for s in b_stems for w in a_words)


def words_name(text: str, attribute: str) -> bool:
    """Whether a word of `text` names `attribute`: a shared stem (`share_a_stem`), or a verb whose doer
    noun the attribute is ("which team *won*": winner; "win" is too short a stem to share)."""
    if share_a_stem(text, attribute):
        return True
    doers = {agent_noun(w) for w in _WORD.findall(text.lower())}
    return any(d and share_a_stem(d, attribute) for d in doers)


def the_one_named(text: str, names: Iterable[str]) -> str | None:
    """The one of `names` a word of `text` names (`words_name`); None where it names none or several."""
    named = [n for n in names if words_name(text, n)]
    return named[0] if len(named) == 1 else None


def agent_words(phrase: str) -> str:
    """`phrase` with the agent noun of each of its verbs added ("cast" -> "cast acted actor cast")."""
    words = phrase.lower().split()
    extra = [AGENT_NOUNS[w] for w in words if w in AGENT_NOUNS]
    return " ".join([phrase, *extra]) if extra else phrase
