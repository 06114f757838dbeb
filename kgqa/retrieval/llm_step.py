"""One LLM request made by a seed-paper retriever (SimGRAG pattern, CoE plan/selection/evaluation),
through the LLM client of the roles when the provider has one (not offline); None means "use the offline
rule instead": no provider, no budget left, or a reply that stayed unusable after one retry."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from kgqa.errors import LLMReplyError, TokenBudgetExceeded
from kgqa.llm.base import AnswerRoles, LLMRequest
from kgqa.llm.prompts import Prompt

T = TypeVar("T")


def has_llm(roles: AnswerRoles) -> bool:
    """Whether the roles talk to an LLM (the offline roles have no client)."""
    return roles.client is not None


def ask_llm(
    roles: AnswerRoles, prompt: Prompt, parse: Callable[[str], T], notes: list[str], **values: object
) -> T | None:
    """`parse(reply)` of one request, or None (with a note) when the offline rule must answer."""
    client = roles.client
    if client is None:
        return None
    request = LLMRequest.single(prompt.name, prompt.system, prompt.render(**values), prompt.max_tokens)
    try:
        return client.send_parsed(request, parse, usage=roles.usage, budget=roles.budget)
    except TokenBudgetExceeded:
        notes.append(f"token budget reached: the {prompt.name} step used its offline rule")
    except LLMReplyError:
        notes.append(f"unusable {prompt.name} reply after one retry: the step used its offline rule")
    return None
