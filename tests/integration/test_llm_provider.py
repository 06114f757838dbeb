"""Adding an LLM provider is one client class and one registry line. The provider here ("plainhttp")
speaks the Messages API with urllib, no SDK, to the local stub (tests/stub_anthropic.py, on 127.0.0.1);
registered by name, it answers a question through `Workspace.ask(..., llm="plainhttp")` with the
provider-free roles, cache-free. No network beyond the loopback is used."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from dataclasses import replace

import pytest
from stub_anthropic import StubAnthropic, smart_reply

from kgqa.config import LLMSettings, RetrievalParams, Settings
from kgqa.errors import ConfigError
from kgqa.llm.base import LLMReply, LLMRequest
from kgqa.llm.cached_client import CachedClient
from kgqa.llm.registry import PROVIDERS

ICSA = "Which papers were published at ICSA in 2019?"
MODEL = "plain-model-1"


class PlainHttpClient(CachedClient):
    """A whole provider: one POST per request, the reply's text and token counts."""

    provider = "plainhttp"

    def __init__(self, base_url: str) -> None:
        super().__init__(MODEL, cache=None)
        self.base_url = base_url

    @classmethod
    def from_settings(cls, settings: Settings, *, require_key: bool = True) -> PlainHttpClient:
        assert settings.llm.base_url
        return cls(settings.llm.base_url)

    def _complete(self, request: LLMRequest) -> LLMReply:
        body = {
            "model": self.model,
            "system": request.system,
            "messages": request.messages,
            "max_tokens": request.max_tokens,
        }
        post = urllib.request.Request(
            f"{self.base_url}/v1/messages", json.dumps(body).encode("utf-8"), {"content-type": "application/json"}
        )
        with urllib.request.urlopen(post, timeout=10) as response:
            reply = json.load(response)
        text = "".join(block["text"] for block in reply["content"])
        return LLMReply(text, reply["usage"]["input_tokens"], reply["usage"]["output_tokens"])


@pytest.fixture
def plain_ws(demo_workspace, monkeypatch):
    """The demo workspace with the provider registered and its settings pointing at the stub."""
    monkeypatch.setitem(PROVIDERS, "plainhttp", f"{__name__}:PlainHttpClient")
    ws, original = demo_workspace, demo_workspace.settings
    with StubAnthropic() as stub:
        ws.settings = replace(original, llm=LLMSettings(base_url=stub.url, cache=False))
        try:
            yield ws, stub
        finally:
            ws.llm_client("plainhttp").close()  # the workspace's shared client of this provider
            ws.settings = original


def test_a_registered_provider_answers_through_the_public_path(plain_ws):
    ws, stub = plain_ws
    a = ws.ask(ICSA, RetrievalParams(topic_entity="F01", hubs_to_keep=10), llm="plainhttp")
    kinds = stub.kinds()
    partials = kinds.count("partial_answer")
    assert partials >= 1 and kinds == ["components"] + ["partial_answer"] * partials + [
        "final_answer",
        "select_triples",
    ]
    assert all(r["body"]["model"] == MODEL and r["status"] == 200 for r in stub.requests)
    final = next(r for r in stub.requests if r["kind"] == "final_answer")
    assert a.mode == "plainhttp" and "[1]" in a.answer
    assert a.answer == smart_reply(final["body"]).strip()  # the provider's reply is the answer
    assert {"2019", "ICSA"} <= set(a.components) and a.sources and a.triples
    usage = a.llm_tokens
    assert usage["calls"] == len(stub.requests) and usage["cache_hits"] == 0
    assert usage["input_tokens"] == sum(r["input_tokens"] for r in stub.requests) > 0
    assert usage["output_tokens"] == sum(r["output_tokens"] for r in stub.requests) > 0
    assert usage["estimated_cost_usd"] is None  # no price known for this model


def test_token_budget_and_notes_apply_to_any_provider(plain_ws):
    ws, stub = plain_ws
    a = ws.ask(ICSA, RetrievalParams(topic_entity="F01", hubs_to_keep=10), llm="plainhttp", token_budget=1)
    assert stub.requests == [] and a.llm_tokens["calls"] == 0
    assert any("token budget of 1 per question reached" in n for n in a.notes), a.notes


def test_unknown_provider_is_a_config_error(demo_workspace):
    with pytest.raises(ConfigError, match="unknown LLM provider 'nope'; known: .*anthropic"):
        demo_workspace.ask(ICSA, llm="nope")


def test_listing_providers_imports_no_sdk_and_a_missing_sdk_names_the_package():
    code = (
        "import sys\nfrom kgqa.llm.registry import PROVIDERS\n"
        "assert {'offline', 'anthropic'} <= set(PROVIDERS)\n"
        "assert 'anthropic' not in sys.modules and 'kgqa.llm.providers.anthropic' not in sys.modules\n"
        "sys.modules['anthropic'] = None  # as if the package were not installed\n"
        "from pathlib import Path\nfrom kgqa.config import LLMSettings, Settings\n"
        "from kgqa.errors import ConfigError\n"
        "from kgqa.llm.registry import make_client\n"
        "try:\n"
        "    make_client('anthropic', Settings(db_path=Path('x.kuzu'), llm=LLMSettings(api_key='k')))\n"
        "except ConfigError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "needs the `anthropic` package: pip install 'anthropic>=0.40'" in out.stdout
