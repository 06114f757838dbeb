"""A per-question token budget: requests reserve their worst case before they are sent."""

from __future__ import annotations

import threading

from kgqa.errors import TokenBudgetExceeded


class TokenBudget:
    """At most `limit` tokens (input + output) for one question; None means unlimited.

    A request reserves its estimated input plus its `max_tokens` before it is sent, so concurrent
    requests cannot overshoot together; the reservation is replaced by the real count afterwards."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.spent = 0
        self.reserved = 0
        self.refused = 0
        self._lock = threading.Lock()

    @property
    def exhausted(self) -> bool:
        """True once a request was refused."""
        return self.refused > 0

    def reserve(self, tokens: int) -> None:
        """Reserve `tokens`, or raise TokenBudgetExceeded (nothing is reserved then)."""
        with self._lock:
            if self.limit is not None and self.spent + self.reserved + tokens > self.limit:
                self.refused += 1
                raise TokenBudgetExceeded(
                    f"the token budget of {self.limit} per question is used up "
                    f"({self.spent} spent, {self.reserved} in flight, {tokens} needed)"
                )
            self.reserved += tokens

    def settle(self, reserved: int, actual: int) -> None:
        """Replace a reservation by the tokens the request really spent."""
        with self._lock:
            self.reserved -= reserved
            self.spent += actual
