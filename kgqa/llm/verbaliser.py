"""Index-time path verbalisation by the LLM (role 1, PATHTOTEXT): many paths per request.

Paths are rendered compactly (`A --p--> B --q--> C`), identical renderings are sent once, sorted so
that an unchanged graph produces the same requests (and so hits the response cache), and batched
`batch_size` per request with at most `concurrency` requests at a time. A batch whose reply stays
unusable after one retry keeps the template texts. `plan` estimates the same work without sending."""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from typing import Any

from kgqa.config import Settings
from kgqa.errors import LLMReplyError
from kgqa.llm.base import LLMClient, LLMRequest, TokenUsage
from kgqa.llm.cost import estimate_cost, estimate_tokens
from kgqa.llm.jsonreply import ReplyFormatError, extract_json
from kgqa.llm.pool import map_bounded
from kgqa.llm.prompts import VERBALISE_PATHS
from kgqa.llm.render import numbered, render_path
from kgqa.progress import ProgressFn, no_progress
from kgqa.vectorstores.base import PathRecord

MAX_OUTPUT_TOKENS = 8192


@dataclass
class VerbalisePlan:
    """What verbalising would send (a dry run): requests, of which cached, and estimated tokens."""

    paths: int = 0
    unique_paths: int = 0
    calls: int = 0
    cached_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    def as_dict(self, model: str) -> dict[str, Any]:
        """For reports; tokens and cost cover the requests not already cached."""
        cost = estimate_cost(model, self.input_tokens, self.output_tokens)
        return {
            "paths": self.paths,
            "unique_paths": self.unique_paths,
            "calls": self.calls,
            "cached_calls": self.cached_calls,
            "estimated_input_tokens": self.input_tokens,
            "estimated_output_tokens": self.output_tokens,
            "estimated_cost_usd": None if math.isnan(cost) else round(cost, 4),
        }


def parse_sentences(text: str, count: int) -> list[str]:
    """A JSON array of exactly `count` non-empty strings."""
    value = extract_json(text, list)
    if len(value) != count or not all(isinstance(v, str) and v.strip() for v in value):
        raise ReplyFormatError(f"expected a JSON array of {count} sentences, got {len(value)} item(s)")
    return [" ".join(v.split()) for v in value]


@dataclass
class LLMPathVerbaliser:
    """Replaces template path texts with LLM sentences (see the module docstring)."""

    client: LLMClient
    batch_size: int = 30
    concurrency: int = 4
    usage: TokenUsage = field(default_factory=TokenUsage)
    planned: VerbalisePlan = field(default_factory=VerbalisePlan)
    fallback_paths: int = 0
    on_progress: ProgressFn = no_progress
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: Recorded in the index metadata ("provider:model"): texts from another model mean re-verbalising.
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = f"{self.client.provider}:{self.client.model}"

    @classmethod
    def from_settings(cls, settings: Settings, client: LLMClient) -> LLMPathVerbaliser:
        """A verbaliser for `settings.llm` through `client` (shared, and so its cache)."""
        return cls(client, batch_size=settings.llm.verbalise_batch, concurrency=settings.llm.concurrency)

    def _batches(self, paths: list[PathRecord]) -> tuple[dict[str, str], list[list[str]]]:
        rendering = {p.hash: render_path(p.triples) for p in paths if p.triples}
        unique = sorted(set(rendering.values()))
        return rendering, [unique[i : i + self.batch_size] for i in range(0, len(unique), self.batch_size)]

    @staticmethod
    def _request(batch: list[str]) -> LLMRequest:
        budget = min(MAX_OUTPUT_TOKENS, 32 + sum(2 * estimate_tokens(r) + 8 for r in batch))
        return LLMRequest.single(
            VERBALISE_PATHS.name,
            VERBALISE_PATHS.system,
            VERBALISE_PATHS.render(count=len(batch), paths=numbered(batch)),
            budget,
        )

    def verbalise(self, paths: list[PathRecord]) -> dict[str, str]:
        """Path hash -> sentence for `paths` (paths of a batch that failed are left out)."""
        rendering, batches = self._batches(paths)
        done = [0]

        def run(batch: list[str]) -> dict[str, str]:
            try:
                sentences = self.client.send_parsed(
                    self._request(batch), lambda t: parse_sentences(t, len(batch)), usage=self.usage
                )
            except LLMReplyError:
                with self._lock:
                    self.fallback_paths += len(batch)
                return {}
            finally:
                with self._lock:
                    done[0] += 1
                    self.on_progress("verbalise", done[0], len(batches))
            return dict(zip(batch, sentences))

        by_rendering: dict[str, str] = {}
        for part in map_bounded(run, batches, self.concurrency):
            by_rendering.update(part)
        return {h: by_rendering[r] for h, r in rendering.items() if r in by_rendering}

    def plan(self, paths: list[PathRecord]) -> None:
        """Count what `verbalise(paths)` would send, without sending (cached batches cost nothing)."""
        _, batches = self._batches(paths)
        self.planned.paths += len(paths)
        self.planned.unique_paths += sum(len(b) for b in batches)
        for batch in batches:
            request = self._request(batch)
            self.planned.calls += 1
            if self.client.is_cached(request):
                self.planned.cached_calls += 1
                continue
            self.planned.input_tokens += request.estimated_input_tokens()
            self.planned.output_tokens += sum(estimate_tokens(r) * 6 // 5 + 6 for r in batch)

    def summary(self, dry_run: bool) -> dict[str, Any]:
        """The build report's `llm` entry: the plan of a dry run, or the usage of a real build."""
        if dry_run:
            return {"verbaliser": self.name, "model": self.client.model, **self.planned.as_dict(self.client.model)}
        return {
            "verbaliser": self.name,
            "model": self.client.model,
            **self.usage.as_dict(),
            "template_fallback_paths": self.fallback_paths,
        }
