"""Every prompt the LLM provider sends, in one place, each with its declared inputs.

The wording is this project's own (the thesis's appendix A.1.1 shows intent only). Changing a
prompt changes the cache key of its requests, so stale cached replies are never reused."""

from __future__ import annotations

import string
from dataclasses import dataclass

from kgqa.errors import ConfigError


@dataclass(frozen=True)
class Prompt:
    """A system prompt and a user-message template whose placeholders are exactly `inputs`."""

    name: str
    system: str
    template: str
    inputs: tuple[str, ...]
    max_tokens: int

    def __post_init__(self) -> None:
        used = {f for _, f, _, _ in string.Formatter().parse(self.template) if f}
        if used != set(self.inputs):
            raise ConfigError(f"prompt {self.name}: template uses {sorted(used)}, declares {sorted(self.inputs)}")

    def render(self, **values: object) -> str:
        """The user message; every declared input must be given, nothing else."""
        if set(values) != set(self.inputs):
            raise ConfigError(f"prompt {self.name} takes {', '.join(self.inputs)}; got {', '.join(sorted(values))}")
        return self.template.format(**values)


VERBALISE_PATHS = Prompt(
    name="verbalise_paths",
    system=(
        "You turn knowledge-graph paths into plain English sentences for a search index. A path starts at "
        "an entity and follows labelled edges, written `A --predicate--> B --predicate--> C`. For each path "
        "write one factual sentence that keeps every entity name exactly as given (titles, names, numbers) "
        "and states every relation in order. Add nothing that is not in the path. Reply with a JSON array "
        "of strings only: one sentence per path, in the given order."
    ),
    template="{count} paths:\n{paths}",
    inputs=("count", "paths"),
    max_tokens=4096,  # raised or lowered per batch by the verbaliser
)

COMPONENTS = Prompt(
    name="components",
    system=(
        "You split a question into the parts that a knowledge-graph search has to match: named entities "
        "and titles (quoted exactly), the kind of thing asked for, properties, dates, numbers and "
        "constraints. Keep the question's own words and do not answer it. Reply with a JSON array of "
        "short strings only."
    ),
    template="Question: {question}",
    inputs=("question",),
    max_tokens=200,
)

PARTIAL_ANSWER = Prompt(
    name="partial_answer",
    system=(
        "You read the facts of one source in a knowledge graph (for example one paper) and state what they "
        "contribute to a question. The facts are numbered; a fact that starts with its predicate is about "
        "the source itself. Use only these facts. Partial information counts: when the question asks for a "
        "list, a count or a comparison, the facts about this single source are still a contribution. If no "
        "fact helps, the source is not relevant. Reply with JSON only: "
        '{"relevant": true or false, "answer": "what this source contributes, in one or two sentences", '
        '"facts": [numbers of the facts used]}.'
    ),
    template="Question: {question}\nSource: {source}\n{context}Facts:\n{facts}",
    inputs=("question", "source", "context", "facts"),
    max_tokens=300,
)

FINAL_ANSWER = Prompt(
    name="final_answer",
    system=(
        "You answer a question from partial answers, each taken from one numbered source of a knowledge "
        "graph. Combine them into one concise answer and mark every claim with the number of the source "
        "it comes from, like [2] or [1][3]. Perform the operation the question asks for, which is given: "
        "value or list (state the values), count (the number of distinct entities, in words and digits, and "
        "what was counted), rank (the items numbered in the asked order of the named key), max or min (the "
        "most or least frequent value with its count; name ties), compare (state both sides and say "
        "earlier/later, more/fewer or the same), group (the count per group in key order) or negation (the "
        "items lacking the property, and whether that is stated explicitly or not stated at all). A "
        "structured result computed from the same facts is given; state its numbers and values unless the "
        "partial answers show it is wrong. With several constraints, say which sources meet each. Use only "
        "the partial answers; if they do not answer the question, say so. Reply with the answer text only; "
        "only if the question asks for another operation than the one given, start the reply with a line "
        "`Operation: NAME` naming it."
    ),
    template="Question: {question}\nOperation: {operation}\nStructured result: {result}\nPartial answers:\n{partials}",
    inputs=("question", "operation", "result", "partials"),
    max_tokens=700,
)

SELECT_TRIPLES = Prompt(
    name="select_triples",
    system=(
        "You choose the knowledge-graph triples that support an answer. Given a question, its answer and "
        "numbered triples written `subject | predicate | object`, list the numbers of the triples that "
        "the answer relies on or that directly answer the question, most relevant first, and leave out "
        "the rest. Reply with a JSON array of numbers only."
    ),
    template="Question: {question}\nAnswer: {answer}\nTriples:\n{triples}",
    inputs=("question", "answer", "triples"),
    max_tokens=300,
)

REPAIR = Prompt(
    name="repair",
    system="",
    template="That reply could not be used ({problem}). Reply again with the JSON only, in the format asked for.",
    inputs=("problem",),
    max_tokens=0,
)

#: The prompts that start a request, by name.
PROMPTS: dict[str, Prompt] = {
    p.name: p for p in (VERBALISE_PATHS, COMPONENTS, PARTIAL_ANSWER, FINAL_ANSWER, SELECT_TRIPLES)
}
