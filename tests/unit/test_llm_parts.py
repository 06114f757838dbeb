"""The LLM mode's small parts without any server: reply parsing, prompts, cache keys, budget, cost."""

from __future__ import annotations

import math

import pytest

from kgqa.errors import ConfigError, TokenBudgetExceeded
from kgqa.llm.budget import TokenBudget
from kgqa.llm.cache import CachedReply, ResponseCache, request_key
from kgqa.llm.cost import estimate_cost, estimate_tokens, price_of
from kgqa.llm.jsonreply import ReplyFormatError, as_int_list, extract_json
from kgqa.llm.prompts import PARTIAL_ANSWER, PROMPTS, Prompt
from kgqa.llm.render import render_fact, render_path
from kgqa.llm.roles import cited_numbers, parse_components, parse_partial
from kgqa.llm.verbaliser import parse_sentences
from kgqa.types import Entity, Triple


@pytest.mark.parametrize(
    "text, kind, expected",
    [
        ('["a", "b"]', list, ["a", "b"]),
        ('Sure:\n```json\n{"relevant": false}\n```\nDone.', dict, {"relevant": False}),
        ('Here: [1, 2] and also {"x": 1}', dict, {"x": 1}),
        ('[broken, then ["ok"]', list, ["ok"]),
    ],
)
def test_extract_json_tolerates_fences_and_prose(text, kind, expected):
    assert extract_json(text, kind) == expected


@pytest.mark.parametrize("text", ["", "no json here", '["unterminated', "{'single': 'quotes'}"])
def test_extract_json_rejects_replies_without_json(text):
    with pytest.raises(ReplyFormatError):
        extract_json(text, list)


def test_structured_reply_shapes():
    assert parse_components('["ICSA", " 2019 ", "", "ICSA"]') == ["ICSA", "2019"]
    assert parse_partial('{"relevant": true, "answer": "x", "facts": [2, "3"]}') == (True, "x", [2, 3])
    with pytest.raises(ReplyFormatError):
        parse_partial('{"relevant": "yes"}')
    with pytest.raises(ReplyFormatError):
        parse_partial('{"relevant": true, "answer": ""}')
    with pytest.raises(ReplyFormatError):
        as_int_list([True])
    assert parse_sentences('["A.", "B."]', 2) == ["A.", "B."]
    with pytest.raises(ReplyFormatError, match="expected a JSON array of 3"):
        parse_sentences('["A.", "B."]', 3)
    assert cited_numbers("X [2] and Y [1][3], Z [2, 4].") == [2, 1, 3, 4]


def test_prompts_declare_their_inputs():
    assert set(PROMPTS) == {"verbalise_paths", "components", "partial_answer", "final_answer", "select_triples"}
    with pytest.raises(ConfigError, match="takes"):
        PARTIAL_ANSWER.render(question="q")
    with pytest.raises(ConfigError, match="declares"):
        Prompt("bad", "s", "{a} {b}", ("a",), 10)


def test_compact_rendering():
    paper, venue = Entity("P1", "Graph QA"), Entity("V1", "ICSA")
    t1, t2 = Triple(paper, "venue", venue), Triple(venue, "location", Entity("L1", "Hamburg"))
    assert render_path([t1, t2]) == "Graph QA --venue--> ICSA --location--> Hamburg"
    assert render_fact(t1, "P1") == "venue: ICSA" and render_fact(t2, "P1") == "ICSA | location | Hamburg"


def test_cache_keys_and_storage(tmp_path):
    msgs = [{"role": "user", "content": "hi"}]
    key = request_key("m", "s", msgs, 10, None)
    assert key != request_key("m", "s", msgs, 10, 0.0) != request_key("m2", "s", msgs, 10, None)
    assert key != request_key("m", "s", msgs, 11, None) and key == request_key("m", "s", list(msgs), 10, None)
    cache = ResponseCache(tmp_path / "sub" / "c.sqlite")
    cache.put(key, "m", "components", CachedReply("[]", 5, 1))
    cache.close()
    again = ResponseCache(tmp_path / "sub" / "c.sqlite")
    assert again.get(key) == CachedReply("[]", 5, 1) and len(again) == 1 and again.get("nope") is None


def test_budget_reserves_then_settles():
    budget = TokenBudget(100)
    budget.reserve(60)
    with pytest.raises(TokenBudgetExceeded):
        budget.reserve(50)
    budget.settle(60, 30)
    budget.reserve(50)
    assert budget.spent == 30 and budget.reserved == 50 and budget.exhausted
    TokenBudget(None).reserve(10**9)


def test_cost_table():
    assert price_of("claude-sonnet-4-6") == (3.0, 15.0) and price_of("claude-opus-4-1-20250805") == (15.0, 75.0)
    assert estimate_cost("claude-haiku-4-5", 1_000_000, 1_000_000) == 6.0
    assert math.isnan(estimate_cost("some-other-model", 1, 1))
    assert estimate_tokens("abcde") == 2
