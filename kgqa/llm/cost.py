"""Token estimates and estimated cost: a small static price table (USD per million tokens).

Prices change; the figures are estimates for planning (`index build --dry-run`) and reporting, not bills."""

from __future__ import annotations

import math

#: (input, output) USD per million tokens, by model-name prefix (the longest matching prefix wins).
PRICES: dict[str, tuple[float, float]] = {
    "claude-opus-4-0": (15.0, 75.0),
    "claude-opus-4-2025": (15.0, 75.0),
    "claude-opus-4-1": (15.0, 75.0),
    "claude-opus-4": (5.0, 25.0),  # 4.5 and later
    "claude-sonnet-4": (3.0, 15.0),
    "claude-3-7-sonnet": (3.0, 15.0),
    "claude-haiku-4": (1.0, 5.0),
    "claude-3-5-haiku": (0.8, 4.0),
}
#: Fallback by model family when a newer model is not in the table yet.
FAMILY_PRICES: dict[str, tuple[float, float]] = {"opus": (5.0, 25.0), "sonnet": (3.0, 15.0), "haiku": (1.0, 5.0)}

#: Characters per token used for estimates (the usual rule of thumb for English prose).
CHARS_PER_TOKEN = 4


def price_of(model: str) -> tuple[float, float] | None:
    """(input, output) USD per million tokens for `model`, or None when unknown."""
    matches = [p for p in PRICES if model.startswith(p)]
    if matches:
        return PRICES[max(matches, key=len)]
    for family, price in FAMILY_PRICES.items():
        if family in model:
            return price
    return None


def estimate_cost(model: str, input_tokens: int, output_tokens: int) -> float:
    """Estimated USD for the given tokens; NaN when the model's price is unknown."""
    price = price_of(model)
    if price is None:
        return math.nan
    return (input_tokens * price[0] + output_tokens * price[1]) / 1_000_000


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate of the tokens in `text` (ceil of characters / 4)."""
    return -(-len(text) // CHARS_PER_TOKEN)


def format_cost(usd: float) -> str:
    """ "$0.0123", or "unknown price" for NaN."""
    if math.isnan(usd):
        return "cost unknown (model not in the price table)"
    return f"${usd:.4f}" if usd < 1 else f"${usd:,.2f}"
