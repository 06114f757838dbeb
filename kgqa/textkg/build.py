"""`kgqa build-kg FILES...`: text files -> sentences -> facts -> the graph, with a report."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from kgqa.graph.store import GraphStore
from kgqa.progress import ProgressFn, no_progress
from kgqa.textkg.passages import Passage, read_text, split_sentences
from kgqa.textkg.rules import Fact
from kgqa.textkg.writer import write_facts

MIGRATIONS = "textkg"


class Extractor(Protocol):
    """Turns passages into facts (the offline rules, or an LLM)."""

    name: str

    def extract(self, passages: list[Passage]) -> list[Fact]:
        """The facts the passages state."""
        ...


@dataclass
class KgBuildReport:
    """What one `build-kg` did."""

    files: int = 0
    passages: int = 0
    facts: int = 0
    qualified_facts: int = 0
    hypernodes: int = 0
    entities_added: int = 0
    triples_added: int = 0
    extractor: str = ""
    llm: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


def build_kg(
    store: GraphStore, paths: Sequence[str | Path], extractor: Extractor, on_progress: ProgressFn = no_progress
) -> KgBuildReport:
    """Extract facts from every file and write them (one transaction per file)."""
    start = time.perf_counter()
    store.apply_migrations(MIGRATIONS)
    report = KgBuildReport(extractor=extractor.name)
    before_e, before_t = store.run("graph/count_entities")[0][0], store.run("graph/count_triples")[0][0]
    texts = [(str(p), read_text(p)) for p in paths]  # every file is read before anything is written
    for n, (source, text) in enumerate(texts, start=1):
        passages = split_sentences(text, source)
        facts = extractor.extract(passages)
        report.hypernodes += write_facts(store, facts, extractor.name)
        report.files += 1
        report.passages += len(passages)
        report.facts += len(facts)
        report.qualified_facts += sum(1 for f in facts if f.qualifiers)
        on_progress("files", n, len(texts))
    report.entities_added = store.run("graph/count_entities")[0][0] - before_e
    report.triples_added = store.run("graph/count_triples")[0][0] - before_t
    usage = getattr(extractor, "usage", None)
    if usage is not None:
        report.llm = usage.as_dict()
    report.seconds = time.perf_counter() - start
    return report


def provenance(store: GraphStore, subject: str, predicate: str, obj: str) -> list[dict[str, Any]]:
    """The passages that state a triple: source file, sentence number, character offsets, text."""
    if not store.has_table("kgqa_Passage"):
        return []
    rows = store.run("textkg/provenance", {"subject": subject, "predicate": predicate, "object": obj})
    return [
        {"source": r[0], "sentence": r[1], "start": r[2], "end": r[3], "text": r[4], "extractor": r[5]} for r in rows
    ]
