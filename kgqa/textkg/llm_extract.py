"""The LLM fact extractor (KG-RAG §4.1): numbered sentences in, facts with qualifiers out, in batches."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from kgqa.llm.base import LLMClient, LLMRequest, TokenUsage
from kgqa.llm.jsonreply import ReplyFormatError, extract_json
from kgqa.llm.prompts import Prompt
from kgqa.textkg.passages import Passage
from kgqa.textkg.rules import Fact, Term

EXTRACT_FACTS = Prompt(
    name="extract_facts",
    system=(
        "You extract knowledge-graph facts from numbered sentences, as many as the text states. Each fact is "
        "a subject, a short predicate (a verb phrase such as 'created' or 'is capital of') and an object; "
        "write names exactly as in the text and resolve pronouns to the names they stand for. When the text "
        "restricts a fact by time, place or another condition ('created Family Guy in 1999'), keep the plain "
        "fact and list the restrictions as qualifiers. Mark numbers, dates and amounts as literals. Reply "
        'with JSON only: {"facts": [{"sentence": 1, "subject": "...", "predicate": "...", "object": "...", '
        '"object_literal": false, "qualifiers": [{"predicate": "in", "object": "1999", "literal": true}]}]}.'
    ),
    template="{count} sentences:\n{sentences}",
    inputs=("count", "sentences"),
    max_tokens=2000,
)
BATCH = 25


@dataclass
class LLMExtractor:
    """Facts by the LLM, `BATCH` sentences per request; a batch whose reply stays unusable after one
    retry falls back to the offline rules for those sentences."""

    client: LLMClient
    usage: TokenUsage = field(default_factory=TokenUsage)
    fallback_batches: int = 0
    name: str = "llm"

    def extract(self, passages: list[Passage]) -> list[Fact]:
        """Facts of every passage, batch by batch."""
        from kgqa.errors import LLMReplyError
        from kgqa.textkg.rules import RuleExtractor

        facts: list[Fact] = []
        for i in range(0, len(passages), BATCH):
            batch = passages[i : i + BATCH]
            lines = "\n".join(f"{n}. {p.text}" for n, p in enumerate(batch, start=1))
            user = EXTRACT_FACTS.render(count=len(batch), sentences=lines)
            request = LLMRequest.single(EXTRACT_FACTS.name, EXTRACT_FACTS.system, user, EXTRACT_FACTS.max_tokens)
            try:
                facts += self.client.send_parsed(request, partial(parse_facts, batch=batch), usage=self.usage)
            except LLMReplyError:
                self.fallback_batches += 1
                facts += RuleExtractor().extract(batch)
        return facts


def parse_facts(text: str, batch: list[Passage]) -> list[Fact]:
    """The reply's facts, each tied to its numbered sentence; malformed items are an error."""
    raw = extract_json(text, dict).get("facts")
    if not isinstance(raw, list):
        raise ReplyFormatError('"facts" must be a list')
    out = []
    for item in raw:
        if not isinstance(item, dict):
            raise ReplyFormatError("each fact must be an object")
        n = item.get("sentence")
        s, p, o = (str(item.get(k, "")).strip() for k in ("subject", "predicate", "object"))
        if not isinstance(n, int) or not 1 <= n <= len(batch) or not (s and p and o):
            raise ReplyFormatError("each fact needs a sentence number in range, a subject, a predicate and an object")
        quals = []
        for q in item.get("qualifiers") or []:
            if isinstance(q, dict) and str(q.get("predicate", "")).strip() and str(q.get("object", "")).strip():
                quals.append((str(q["predicate"]).strip(), Term(str(q["object"]).strip(), bool(q.get("literal")))))
        out.append(Fact(Term(s), p, Term(o, bool(item.get("object_literal"))), batch[n - 1], tuple(quals)))
    return out
