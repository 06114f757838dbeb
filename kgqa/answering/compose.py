"""From a question and its partial answers to the answer text and its structured result."""

from __future__ import annotations

from kgqa.answering.facts import best_attributes, collect, meeting_constraints
from kgqa.answering.operations import perform
from kgqa.answering.question import analyse
from kgqa.answering.render import render
from kgqa.answering.result import OPERATIONS, AnswerResult
from kgqa.types import PartialAnswer


def compose(question: str, partials: list[PartialAnswer], operation: str | None = None) -> tuple[str, AnswerResult]:
    """The cited answer sentences and the structured result, over the partial answers' facts only;
    `operation` overrides the one detected from the question (the LLM mode may name another)."""
    plan = analyse(question)
    if operation in OPERATIONS:
        plan.operation = operation
    evidence = collect(question, partials)
    if plan.operation != "compare":  # the sides of a comparison meet different constraints
        evidence = meeting_constraints(evidence, best_attributes(plan.negated, evidence.attributes()))
    outcome = perform(plan, evidence)
    return render(plan, outcome, evidence), outcome.result
