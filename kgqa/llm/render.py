"""Compact text renderings of paths, facts and triples for prompts (labels only, no ids)."""

from __future__ import annotations

from collections.abc import Sequence

from kgqa.types import Entity, Triple

#: Longer labels (e.g. abstracts stored as literals) are cut to this many characters in prompts.
MAX_LABEL_CHARS = 200


def label(entity: Entity) -> str:
    """The entity's text, on one line and cut to MAX_LABEL_CHARS."""
    text = " ".join(entity.text.split())
    return text if len(text) <= MAX_LABEL_CHARS else text[: MAX_LABEL_CHARS - 1] + "…"


def render_path(triples: Sequence[Triple]) -> str:
    """`A --p--> B --q--> C` (a path is a chain: each triple starts where the last one ended)."""
    if not triples:
        return ""
    parts = [label(triples[0].subject)]
    for t in triples:
        parts.append(f"--{t.predicate}--> {label(t.object)}")
    return " ".join(parts)


def render_fact(triple: Triple, root_id: str) -> str:
    """`predicate: object` for a fact about the hub root itself, else `subject | predicate | object`;
    an edge's own properties after it, `(role: Neo)`."""
    if triple.subject.id == root_id:
        return f"{triple.predicate}: {label(triple.object)}{_qualified(triple)}"
    return render_triple(triple)


def render_triple(triple: Triple) -> str:
    """`subject | predicate | object`, an edge's own properties after it."""
    return f"{label(triple.subject)} | {triple.predicate} | {label(triple.object)}{_qualified(triple)}"


def _qualified(triple: Triple) -> str:
    return f" ({triple.qualifier_text})" if triple.qualifiers else ""


def numbered(lines: Sequence[str]) -> str:
    """`1. first` / `2. second` ..."""
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))
