"""The exploration plan of Chain of Explorations (seeds/kg-rag-coe-paper.txt, Algorithm 1 line 2): the
LLM's plan parsed from its reply, and an offline planner for simple questions.

A plan is a list of steps. `node`: find the starting nodes by vector search over entity labels.
`relation`: follow the relations of the current nodes that best match the step text (by predicate, by
target label or by target type) to new current nodes. `check`: keep the current nodes that reach a node
matching the step text within two hops ("Isolate the husband who died in Chichester", the paper's
Figure 4); the current nodes stay where they are.

The offline planner starts at the question's anchor that best matches an entity label (a title, a name,
a value), moves to the kind of thing asked for ("Which papers ..."), checks the other anchors, and follows
the remaining attributes ("authors", "publication year")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kgqa.llm.jsonreply import ReplyFormatError, extract_json
from kgqa.question.components import Component
from kgqa.retrieval.patterns import NAMING, asked_type

KINDS = ("node", "relation", "check")
MAX_STEPS = 6


@dataclass(frozen=True)
class Step:
    """One step of the plan."""

    kind: str
    text: str

    def as_dict(self) -> dict[str, str]:
        """For the trace and the LLM prompts."""
        return {"kind": self.kind, "text": self.text}


def offline_plan(question: str, components: list[Component], node_score: Callable[[str], float]) -> list[Step]:
    """The plan for a simple question (empty when it names nothing to look up)."""
    usable = [c for c in components if c.text.lower() not in NAMING]
    if not usable:
        return []
    anchors = [c for c in usable if c.anchor]
    pool = anchors or usable
    start = max(pool, key=lambda c: (round(node_score(c.text), 3), len(c.text), -pool.index(c)))
    steps = [Step("node", start.text)]
    asked = asked_type(question)
    rest = [c for c in usable if c is not start]
    kind = [c for c in rest if not c.anchor and asked and asked in c.text.lower()]
    if kind:
        steps.append(Step("relation", kind[0].text))
    elif asked and asked not in start.text.lower():
        steps.append(Step("relation", asked))
    steps += [Step("check", c.text) for c in rest if c.anchor]
    steps += [Step("relation", c.text) for c in rest if not c.anchor and c not in kind[:1]]
    return steps[:MAX_STEPS]


def parse_plan_reply(text: str) -> list[Step]:
    """`{"steps": [{"kind": ..., "text": ...}, ...]}` -> steps; the first must be a node step."""
    steps = _steps(extract_json(text, dict).get("steps"))
    if not steps or steps[0].kind != "node":
        raise ReplyFormatError("the plan must start with a node step")
    return steps


def parse_evaluation_reply(text: str) -> tuple[str, list[Step]]:
    """`{"decision": continue|respond|refine, "steps": [...]}` -> (decision, new steps for refine)."""
    value = extract_json(text, dict)
    decision = str(value.get("decision", "")).strip().lower()
    if decision not in ("continue", "respond", "refine"):
        raise ReplyFormatError('"decision" must be continue, respond or refine')
    steps = _steps(value.get("steps")) if decision == "refine" else []
    if decision == "refine" and (not steps or steps[0].kind != "node"):
        raise ReplyFormatError("a refined plan must start with a node step")
    return decision, steps


def _steps(raw: object) -> list[Step]:
    if not isinstance(raw, list):
        raise ReplyFormatError('"steps" must be a list')
    steps = []
    for item in raw[:MAX_STEPS]:
        if not isinstance(item, dict):
            raise ReplyFormatError("each step must be an object with kind and text")
        kind, text = str(item.get("kind", "")).strip().lower(), str(item.get("text", "")).strip()
        if kind not in KINDS or not text:
            raise ReplyFormatError(f"a step needs kind in {KINDS} and a text")
        steps.append(Step(kind, text))
    return steps
