"""Offline, rule-based question component extraction (the LLM-free EXTRACTCOMPONENTS, spec §3)."""

from __future__ import annotations

import re

STOP_WORDS = frozenset("""
a an the of in on at to for from by with about into over under and or not no nor but as is are was were be
been being do does did has have had having this that these those there here which who whom whose what when
where why how many much more most less least all any some each every other than then so such it its they
them their we our you your i me my he she his her can could should would may might will shall must also
only just very paper's per please list give show tell find name names provide return count number order
ordered rank ranked descending ascending respect regarding based according
""".split())

QUESTION_WORDS = frozenset({"which", "who", "whom", "whose", "what", "when", "where", "why", "how", "is",
                            "are", "was", "were", "do", "does", "did", "list", "give", "show", "name"})

_QUOTED = re.compile(r"""["“”‘’]([^"“”‘’]{2,})["“”‘’]|(?<![A-Za-z])'([^']{2,}?)'(?![A-Za-z])""")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
_WORD = re.compile(r"[A-Za-z][\w\-/&+.]*[\w]|[A-Za-z]")


def extract_components(question: str, max_components: int = 8) -> list[str]:
    """Quoted strings, years and numbers, capitalised spans and stop-word-free noun phrases."""
    found: list[str] = []
    rest = question
    for m in _QUOTED.finditer(question):
        text = (m.group(1) or m.group(2) or "").strip()
        if text:
            found.append(text)
            rest = rest.replace(m.group(0), " | ")
    found += _NUMBER.findall(rest)
    rest = _NUMBER.sub(" | ", rest)
    tokens = re.findall(r"[A-Za-z][\w\-/&+.]*\w|[A-Za-z]|[|?,;:!()]", rest)
    spans: list[list[str]] = []
    current: list[str] = []
    for i, tok in enumerate(tokens):
        low = tok.lower()
        if not tok[0].isalpha() or low in STOP_WORDS or (i == 0 and low in QUESTION_WORDS):
            if current:
                spans.append(current)
            current = []
            continue
        current.append(tok)
    if current:
        spans.append(current)
    capitalised: list[str] = []
    phrases: list[str] = []
    for span in spans:  # split each span into runs of capitalised and of lower-case words
        run: list[str] = []
        for w in span + [""]:
            if run and (not w or w[0].isupper() != run[-1][0].isupper()):
                (capitalised if run[0][0].isupper() else phrases).append(" ".join(run))
                run = []
            if w:
                run.append(w)
    found += capitalised + phrases
    out: list[str] = []
    seen: set[str] = set()
    for c in found:
        c = c.strip(" .?!,;:")
        key = c.lower()
        if c and key not in seen and key != question.strip(" ?").lower():
            seen.add(key)
            out.append(c)
    return out[:max_components]
