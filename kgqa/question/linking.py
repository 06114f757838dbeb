"""Names in a question linked to the graph's labels without ids: hub titles (quoted or not, partial,
lower-case, with a typo or two) and attribute values (names, venues, years, acronyms). A name that
matches nothing is reported with the closest labels; a name that matches several equally is reported
with its candidates, never guessed."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from kgqa.answering.catalog import Catalog, Fact
from kgqa.answering.words import plural
from kgqa.question.components import STOP_WORDS
from kgqa.question.demonyms import demonyms

_QUOTED = re.compile(r"""'([^']{3,})'|"([^"]{3,})"|[“‘]([^”’]{3,})[”’]""")
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
_WORD = re.compile(r"[a-z0-9][a-z0-9\-]*")
_ACRONYM = re.compile(r"\(([A-Za-z][A-Za-z0-9\-]{1,14})\)\s*$")
MAX_TITLE_WORDS = 200_000
_START = 5  # characters of a written value form that index it (see Linker._values)
_UNINFORMATIVE = frozenset({"true", "false", "yes", "no", "none", "n/a", "unknown"})
#: Words written before a name that says who or what (a person, a venue) is meant.
_NAME_CUE = re.compile(
    r"\b(?:by|from|named|called|author|authored by|written by|wrote|writer|at|in the venue|venue)\s+"
    r"((?:[A-Za-z][\w\.\-']*\s*){1,4})",
)
_CAPITALISED = re.compile(r"(?<=[a-z,] )([A-Z][a-z][\w\-']*(?:\s+(?:van |de |von |da )?[A-Z][\w\-']+){1,3})")
_CUE_STOP = frozenset(
    """the a an their its year years venue venues name names title titles order descending ascending
    publication publications paper papers count number total each every per which what who how and or
    newest oldest latest earliest first last most least""".split()
)


@dataclass
class Mention:
    """A span of the question linked to hubs (titles) or to attribute values."""

    text: str  # as written
    start: int
    end: int
    hubs: list[str] = field(default_factory=list)  # linked hub ids (several = ambiguous)
    facts: list[Fact] = field(default_factory=list)  # linked values (all hubs' facts with that value)
    score: float = 100.0
    candidates: list[str] = field(default_factory=list)  # labels when ambiguous

    @property
    def label(self) -> str:
        """The graph's label of what was linked."""
        return self.facts[0].value if self.facts else ""


@dataclass
class Unlinked:
    """A name the question writes that is not in the graph, with the closest labels."""

    text: str
    closest: list[str]


@dataclass
class Links:
    """Everything linked in one question."""

    hubs: list[Mention] = field(default_factory=list)
    values: list[Mention] = field(default_factory=list)
    years: list[str] = field(default_factory=list)
    unlinked: list[Unlinked] = field(default_factory=list)
    ambiguous: list[Mention] = field(default_factory=list)

    def spans(self) -> list[tuple[int, int]]:
        """The character spans taken by links."""
        return [(m.start, m.end) for m in self.hubs + self.values + self.ambiguous]


class Linker:
    """Label indexes of one catalog, built once."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.hub_labels = cat.hub_label_index()
        names = [*cat.paths, cat.hub_type]  # the graph's own vocabulary: attribute names and the hub type
        self._schema_words = {w for n in names for w in _WORD.findall(n.casefold()) if len(w) >= 3}
        self.hub_keys = list(self.hub_labels)
        self._vocabulary: list[str] | None = None  # the title words, for words written with a typo
        self.words: dict[str, set[str]] = defaultdict(set)  # content word -> hub labels (lower)
        for key in self.hub_keys:
            for w in set(_WORD.findall(key)):
                if len(w) >= 4 and w not in STOP_WORDS:
                    self.words[w].add(key)
        self.value_keys: dict[str, str] = {}  # written form (lower) -> value key in cat.values
        for key, facts in cat.values.items():
            if key in self.hub_labels or key in _UNINFORMATIVE or len(key) < 3 or key.replace(".", "").isdigit():
                continue
            if facts[0].value_id in cat.hubs:
                continue
            self.value_keys.setdefault(key, key)
            acro = _ACRONYM.search(facts[0].value)
            if acro:
                self.value_keys.setdefault(acro.group(1).casefold(), key)
                self.value_keys.setdefault(_ACRONYM.sub("", key).strip(), key)
        for key in list(self.value_keys.values()):
            for adjective in demonyms(key):  # "irish authors": from Ireland (a label "Irish" is itself)
                self.value_keys.setdefault(adjective, key)
        self.long_keys = [k for k in self.value_keys if len(k) >= 8]
        # written forms by their first characters: a question is searched only for the forms whose
        # start it writes, in the order of `value_keys` (ties between equal spans keep that order)
        self._order = {k: i for i, k in enumerate(self.value_keys)}
        self._by_start: dict[str, list[str]] = defaultdict(list)
        self._short: list[str] = []
        for written in self.value_keys:
            if len(written) >= _START:
                self._by_start[written[:_START]].append(written)
            else:
                self._short.append(written)

    def link(self, question: str) -> Links:
        """The hubs, values, years and unknown names of `question`."""
        links = Links()
        low = question.casefold()
        taken: list[tuple[int, int]] = []
        for m in _QUOTED.finditer(question):
            text = next(g for g in m.groups() if g)
            mention = self._quoted(text, m.start(), m.end())
            if isinstance(mention, Unlinked):
                links.unlinked.append(mention)
            elif mention.candidates:
                links.ambiguous.append(mention)
            elif mention.hubs:
                links.hubs.append(mention)
            else:
                links.values.append(mention)
            taken.append((m.start(), m.end()))
        if not links.hubs:
            hub = self._unquoted_title(low, taken)
            if hub:
                links.hubs.append(hub)
                taken.append((hub.start, hub.end))
                # "what connects x and y", "which is older, x or y": a second title, across "and" / "or";
                # "does x report to y": a yes/no question about two titles
                if _PAIRED.search(_mask(low, taken)) or _YES_NO_START.match(low):
                    second = self._unquoted_title(_mask(low, taken), taken)  # among the words left
                    if second and second.hubs != hub.hubs:
                        links.hubs = sorted([hub, second], key=lambda m: m.start)  # in the question's order
                        taken.append((second.start, second.end))
        for mention in self._values(low, question, taken):
            links.values.append(mention)
            taken.append((mention.start, mention.end))
        links.years = [y for y in _YEAR.findall(question) if not _inside(question.find(y), taken)]
        links.unlinked += self._unknown_names(question, taken, links)
        return links

    def _quoted(self, text: str, start: int, end: int) -> Mention | Unlinked:
        key = text.casefold().strip()
        if key in self.hub_labels:
            return Mention(text, start, end, hubs=list(self.hub_labels[key]))
        if key in self.value_keys:
            return Mention(text, start, end, facts=self.cat.values[self.value_keys[key]])
        found = process.extract(key, self.hub_keys, scorer=fuzz.WRatio, limit=3, score_cutoff=86)
        if found:
            best = found[0][1]
            near = [k for k, s, _ in found if s >= best - 2]
            if len(near) > 1 and not any(k.startswith(key) for k in near[:1]):
                return Mention(
                    text, start, end, score=best, candidates=[self.cat.hubs[self.hub_labels[k][0]] for k in near]
                )
            return Mention(text, start, end, hubs=list(self.hub_labels[found[0][0]]), score=best)
        found = process.extract(key, list(self.value_keys), scorer=fuzz.WRatio, limit=1, score_cutoff=88)
        if found:
            return Mention(text, start, end, facts=self.cat.values[self.value_keys[found[0][0]]], score=found[0][1])
        return Unlinked(text, self.closest(text))

    def closest(self, text: str, limit: int = 3, attribute: str = "") -> list[str]:
        """The labels nearest to `text` (hub titles and values; only values of `attribute` when given)."""
        if attribute:
            keys = [k for k, v in self.value_keys.items() if self.cat.values[v][0].attribute == attribute]
        else:
            keys = self.hub_keys + list(self.value_keys)
        found = process.extract(text.casefold(), keys, scorer=fuzz.WRatio, limit=limit)
        out = []
        for k, _, _ in found:
            label = (
                self.cat.hubs[self.hub_labels[k][0]]
                if k in self.hub_labels
                else self.cat.values[self.value_keys[k]][0].value
            )
            if label not in out:
                out.append(label)
        return out

    def _unquoted_title(self, low: str, taken: list[tuple[int, int]]) -> Mention | None:
        words = [w for w in _WORD.findall(low) if len(w) >= 4 and w not in STOP_WORDS]
        counts: dict[str, int] = defaultdict(int)
        for w in set(words):
            # a word written with a typo ("glas summer 2") counts for the titles of the word it is close to
            near = [w] if w in self.words else self._near_words(w)
            for key in {k for n in near for k in self.words.get(n, ())}:
                counts[key] += 1
        best: tuple[float, str, tuple[int, int]] | None = None
        for key, n in counts.items():
            title_words = [w for w in _WORD.findall(key) if len(w) >= 4 and w not in STOP_WORDS]
            if n < 3 and n < len(title_words):
                continue
            align = fuzz.partial_ratio_alignment(key, low) if len(key) <= len(low) else None
            if align is not None and align.score >= 90 and align.dest_end - align.dest_start >= len(key) // 2:
                score, span = align.score, (align.dest_start, align.dest_end)
            else:
                hits = [
                    (m.start(), m.end())
                    for w in set(words)
                    if re.search(rf"\b{re.escape(w)}\b", key)
                    for m in re.finditer(rf"\b{re.escape(w)}\b", low)
                ]
                if n < 3 or not hits:
                    continue
                span = (min(h[0] for h in hits), max(h[1] for h in hits))
                written = low[span[0] : span[1]]
                score = fuzz.partial_ratio(written, key) if len(written) >= max(15, len(key) // 2) else 0.0
                if score < 90 and n / max(len(title_words), 1) < 0.75:
                    continue
            if _inside(span[0], taken):
                continue
            # the longer title among equals ("quiet carnival returns", not the title "quiet carnival" in it)
            if best is None or (score, len(key)) > (best[0], len(best[1])):
                best = (score, key, span)
        if best is None:
            return None
        score, key, (s, e) = best
        return Mention(low[s:e], s, e, hubs=list(self.hub_labels[key]), score=score)

    def _near_words(self, word: str) -> list[str]:
        """The title words one or two edits from `word`, with its first letter (none past
        MAX_TITLE_WORDS distinct words: a scan of them all per question)."""
        if len(self.words) > MAX_TITLE_WORDS or len(word) < 4:
            return []
        if self._vocabulary is None:
            self._vocabulary = list(self.words)
        found = process.extract(word, self._vocabulary, scorer=fuzz.ratio, limit=3, score_cutoff=80)
        return [w for w, _, _ in found if w[0] == word[0]]

    def _values(self, low: str, question: str, taken: list[tuple[int, int]]) -> list[Mention]:
        found: dict[str, tuple[int, int, float]] = {}
        starts = {low[i : i + _START] for i in range(len(low) - _START + 1)}
        written_here = self._short + [w for start in starts for w in self._by_start.get(start, ())]
        for written in sorted(written_here, key=self._order.__getitem__):
            key = self.value_keys[written]
            i = low.find(written)
            if i >= 0 and _bounded(low, i, i + len(written)):
                _keep(found, key, (i, i + len(written), 100.0))
            elif len(written) >= 3 and not self._schema_word(written):
                # "has X directed any *dramas*": a value written in the plural (not the graph's own nouns)
                many = plural(written)
                i = low.find(many)
                if many != written and i >= 0 and _bounded(low, i, i + len(many)):
                    _keep(found, key, (i, i + len(many), 100.0))
        if self.long_keys:
            masked = _mask(low, taken + [(s, e) for s, e, _ in found.values()])
            for written, score, _ in process.extract(
                masked, self.long_keys, scorer=fuzz.partial_ratio, limit=5, score_cutoff=88
            ):
                key = self.value_keys[written]
                if key in found:
                    continue
                align = fuzz.partial_ratio_alignment(written, masked)
                if align is None or align.dest_end - align.dest_start < len(written) - 3:
                    continue
                _keep(found, key, (align.dest_start, align.dest_end, score))
        spans = sorted(((s, e, sc, k) for k, (s, e, sc) in found.items()), key=lambda x: (-(x[1] - x[0]), x[0]))
        out: list[Mention] = []
        for s, e, sc, key in spans:
            if _inside(s, taken) or any(m.start <= s < m.end or s <= m.start < e for m in out):
                continue
            out.append(Mention(question[s:e], s, e, facts=self.cat.values[key], score=sc))
        return out

    def _schema_word(self, word: str) -> bool:
        """Whether `word` (or its singular) is a word of the graph's attribute names or its hub type."""
        w = word.casefold()
        return w in self._schema_words or (w.endswith("s") and w[:-1] in self._schema_words)

    def _unknown_names(self, question: str, taken: list[tuple[int, int]], links: Links) -> list[Unlinked]:
        out: list[Unlinked] = []
        seen: set[str] = set()
        for m in list(_NAME_CUE.finditer(question)) + list(_CAPITALISED.finditer(question)):
            if _inside(m.start(1), taken) or m.group(1) in seen:
                continue
            seen.add(m.group(1))
            words = []
            for w in m.group(1).split():
                if w.casefold().strip("?.,") in _CUE_STOP or w.casefold() in STOP_WORDS:
                    break
                words.append(w.strip("?.,"))
            name = " ".join(words)
            if len(words) < 2 or name in seen and name != m.group(1).strip():
                continue
            if any(self._schema_word(w) for w in words):
                continue  # "by authors affiliated with ...": the graph's own vocabulary, not a name
            seen.add(name)
            if any(_inside(question.find(w), taken) for w in words):
                continue
            out.append(Unlinked(name, self.closest(name)))
        return out


#: Words that join two named things ("x and y", "x or y", "x vs y", "x before y", "older than y").
_YES_NO_START = re.compile(r"\s*(?:is|was|were|are|did|does|do|has|have|had)\b")
_PAIRED = re.compile(r"\b(?:and|or|vs|versus|before|after|than)\b")


def _keep(found: dict[str, tuple[int, int, float]], key: str, hit: tuple[int, int, float]) -> None:
    old = found.get(key)
    if old is None or hit[2] > old[2] or (hit[2] == old[2] and hit[1] - hit[0] > old[1] - old[0]):
        found[key] = hit


def _bounded(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not before.isalnum() and not after.isalnum()


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return pos >= 0 and any(s <= pos < e for s, e in spans)


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for s, e in spans:
        for i in range(max(s, 0), min(e, len(chars))):
            chars[i] = " "
    return "".join(chars)
