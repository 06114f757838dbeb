"""Offline, deterministic verbalisation of a triple path (the LLM-free PATHTOTEXT), and the protocol of
a path verbaliser that replaces those texts at index time (an LLM provider's, kgqa/llm/verbaliser.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from kgqa.vectorstores.base import PathRecord

_VERB_PREFIXES = (
    "has ",
    "is ",
    "was ",
    "uses ",
    "used ",
    "provides ",
    "addresses ",
    "cites ",
    "belongs ",
    "located ",
    "published ",
    "contains ",
    "includes ",
    "refers ",
)


def _phrase(predicate: str) -> str:
    p = predicate.strip()
    low = p.lower()
    if low.startswith(_VERB_PREFIXES) or low.endswith((" of", " by", " in", " to", " for", " with")):
        return p
    return f"has {p}"


def verbalise(
    texts: Sequence[str], predicates: Sequence[str], qualifiers: Sequence[Sequence[tuple[str, str]]] = ()
) -> str:
    """Turn a path given as its entity texts (n+1) and predicates (n) into one sentence, e.g.
    "'A' has venue 'ICSA', which has location 'Hamburg'."; an edge's own properties (`qualifiers`, one
    sequence per predicate, or none) follow its object: "'Hummus' uses 'Chickpeas' (amount '200 g')"."""
    if not predicates:
        return f"'{texts[0]}'." if texts else ""

    def said(i: int) -> str:
        notes = qualifiers[i] if i < len(qualifiers) else ()
        extra = " (" + ", ".join(f"{k} '{v}'" for k, v in notes) + ")" if notes else ""
        return f"'{texts[i + 1]}'{extra}"

    parts = [f"'{texts[0]}' {_phrase(predicates[0])} {said(0)}"]
    for i in range(1, len(predicates)):
        parts.append(f"which {_phrase(predicates[i])} {said(i)}")
    return ", ".join(parts) + "."


class PathVerbaliser(Protocol):
    """Replaces the template path texts (e.g. an LLM); without one, the template texts are kept."""

    name: str

    def verbalise(self, paths: list[PathRecord]) -> dict[str, str]:
        """Path hash -> new text (paths left out keep their template text)."""
        ...

    def plan(self, paths: list[PathRecord]) -> None:
        """Dry run: account for what `verbalise(paths)` would cost, sending nothing."""
        ...

    def summary(self, dry_run: bool) -> dict[str, Any]:
        """The plan (dry run) or the usage (real build), for the build report."""
        ...
