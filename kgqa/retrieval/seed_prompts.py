"""The prompts of the seed-paper retrievers in LLM mode (SimGRAG query-to-pattern; Chain of Explorations
planning, selection and evaluation). This project's own wording; the papers show the intent only."""

from __future__ import annotations

from kgqa.llm.prompts import Prompt

SIMGRAG_PATTERN = Prompt(
    name="simgrag_pattern",
    system=(
        "You turn a question into a small knowledge-graph pattern: the triples a graph would need to hold "
        "for the question to be answered. Split the question into segments, one per triple, then write each "
        "triple as [head, relation, tail] using the question's own words for names, titles and values "
        "(quote titles exactly). Never use vague relations such as 'in', 'of' or 'for'. Write a node or a "
        "relation the question does not name as 'UNKNOWN <kind> <n>', e.g. 'UNKNOWN paper 1' or "
        "'UNKNOWN relation 1'; reuse the same name for the same unknown node. Use at most 4 triples, all "
        'connected. Reply with JSON only: {"divided": ["segment", ...], "triples": [["head", "relation", '
        '"tail"], ...]}.'
    ),
    template="Question: {question}",
    inputs=("question",),
    max_tokens=400,
)

COE_PLAN = Prompt(
    name="coe_plan",
    system=(
        "You plan how to explore a knowledge graph to answer a question. The first step ('node') finds the "
        "starting nodes by name; a 'relation' step follows relations from the current nodes to new nodes; a "
        "'check' step keeps only the current nodes connected to a given value. Write each step as a short "
        "search text: for the first step the name, title or value to look up; for relation steps the "
        "relation or the kind of node to move to (e.g. 'authors', 'publication year', 'papers'); for check "
        "steps the value (e.g. '2019'). Use at most 5 steps. Reply with JSON only: "
        '{"steps": [{"kind": "node" | "relation" | "check", "text": "..."}, ...]}.'
    ),
    template="Question: {question}",
    inputs=("question",),
    max_tokens=300,
)

COE_SELECT = Prompt(
    name="coe_select",
    system=(
        "You are exploring a knowledge graph step by step to answer a question. Given the question, the "
        "current step and numbered candidates ranked by similarity, choose the candidates that the "
        "exploration should follow (all that fit, best first). Reply with a JSON array of numbers only."
    ),
    template="Question: {question}\nStep: {step}\nCandidates:\n{candidates}",
    inputs=("question", "step", "candidates"),
    max_tokens=200,
)

COE_EVALUATE = Prompt(
    name="coe_evaluate",
    system=(
        "You check an exploration of a knowledge graph against its question and plan. Given the facts found "
        "so far and the remaining steps, answer 'continue' to go on with the plan, 'respond' when the facts "
        "already answer the question, or 'refine' with a new plan when the exploration went astray. Reply "
        'with JSON only: {"decision": "continue" | "respond" | "refine", "steps": [{"kind": ..., "text": ...}]} '
        "(steps only for refine)."
    ),
    template="Question: {question}\nRemaining steps: {remaining}\nFacts found:\n{facts}",
    inputs=("question", "remaining", "facts"),
    max_tokens=300,
)
