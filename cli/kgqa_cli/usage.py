"""One-line renderings of LLM usage (tokens, calls, cache hits, estimated cost) for CLI output."""

from __future__ import annotations

import math
from typing import Any

from kgqa.llm.cost import format_cost


def usage_line(usage: dict[str, Any]) -> str:
    """ "0 LLM tokens" offline; else tokens, calls, cache hits and the estimated cost."""
    total = int(usage.get("total_tokens", 0) or 0)
    calls, hits = int(usage.get("calls", 0) or 0), int(usage.get("cache_hits", 0) or 0)
    if not calls and not hits:
        return f"{total} LLM tokens"
    cost = usage.get("estimated_cost_usd")
    cost_text = format_cost(math.nan if cost is None else float(cost))
    split = (
        f" ({usage['input_tokens']:,} in, {usage['output_tokens']:,} out)"
        if "input_tokens" in usage and "output_tokens" in usage
        else ""
    )
    return f"{total:,} LLM tokens{split} in {calls} call{'s' if calls != 1 else ''}, {hits} cached, est. {cost_text}"


def estimate_line(plan: dict[str, Any]) -> str:
    """A dry run's verbalisation estimate."""
    cost = plan.get("estimated_cost_usd")
    cost_text = format_cost(math.nan if cost is None else float(cost))
    return (
        f"LLM verbalisation ({plan.get('verbaliser')}): {plan.get('unique_paths', 0):,} distinct paths in "
        f"{plan.get('calls', 0)} calls ({plan.get('cached_calls', 0)} already cached); about "
        f"{plan.get('estimated_input_tokens', 0):,} input + {plan.get('estimated_output_tokens', 0):,} output "
        f"tokens, est. {cost_text}"
    )
