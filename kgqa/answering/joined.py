"""One answer from the answers to a question's parts (kgqa/question/parts.py): the parts' sentences in
order with their citations numbered over one sources list (a hub both parts cite keeps one number), the
evidence and hubs of both, and a structured result that keeps each part's."""

from __future__ import annotations

import re
from functools import partial

from kgqa.types import Answer, Source

_CITATION = re.compile(r"\[(\d+)\]")


def join_answers(question: str, parts: list[Answer]) -> Answer:
    """The answer to `question` made of its parts' answers (each part's `question` is its own text)."""
    sources: list[Source] = []
    number: dict[str, int] = {}
    texts: list[str] = []
    for part in parts:
        renumber: dict[int, int] = {}
        for s in part.sources:
            if s.hub_id not in number:
                number[s.hub_id] = len(number) + 1
                sources.append(Source(number[s.hub_id], s.hub_id, s.label))
            renumber[s.n] = number[s.hub_id]
        texts.append(_CITATION.sub(partial(_renumbered, renumber=renumber), part.answer.strip()))
    first = parts[0]
    timings: dict[str, float] = {}
    for part in parts:
        for key, seconds in part.timings.items():
            timings[key] = timings.get(key, 0.0) + seconds
    strategies = list(dict.fromkeys(p.strategy for p in parts))
    results = [{"question": p.question, **(p.result or {})} for p in parts]
    return Answer(
        question=question,
        answer=" ".join(texts),
        sources=sources,
        triples=list(dict.fromkeys(t for p in parts for t in p.triples)),
        hubs=list({h.hub_id: h for p in parts for h in p.hubs}.values()),
        retriever=first.retriever,
        mode=first.mode,
        strategy="+".join(strategies),
        topic_entity=first.topic_entity,
        components=[c for p in parts for c in p.components],
        timings=timings,
        notes=[f"asked in {len(parts)} parts: " + "; ".join(repr(p.question) for p in parts)]
        + [n for p in parts for n in p.notes],
        trace=[step for p in parts for step in p.trace],
        result={
            "operation": "parts",
            "value": None,
            "items": [i for r in results for i in r.get("items", [])],
            "groups": {},
            "parts": results,
        },
    )


def _renumbered(citation: re.Match[str], renumber: dict[int, int]) -> str:
    n = int(citation[1])
    return f"[{renumber.get(n, n)}]"
