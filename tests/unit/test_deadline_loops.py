"""The question budget inside long loops (kgqa/deadline.py `checked`): a loop over a super-node's paths
or a 200,000-value list stops soon after the budget, not at its end; without a budget it runs whole."""

from __future__ import annotations

import itertools
import time

import pytest

from kgqa import deadline
from kgqa.errors import QuestionTimeoutError


def test_a_long_loop_stops_at_the_budget_and_says_where():
    seen = 0
    start = time.monotonic()
    with deadline.question_budget(0.2), pytest.raises(QuestionTimeoutError, match=r"stopped in a test loop"):
        for _ in deadline.checked(itertools.count(), "a test loop", every=50):
            seen += 1
            time.sleep(0.0005)
    assert 0.2 <= time.monotonic() - start < 2.0
    assert seen >= 50  # it ran until the budget, then stopped within `every` items


def test_without_a_budget_every_item_comes():
    assert list(deadline.checked(range(5_000), "a test loop", every=10)) == list(range(5_000))
    with deadline.question_budget(60):
        assert sum(deadline.checked(range(5_000), "a test loop")) == sum(range(5_000))
