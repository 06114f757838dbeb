"""DiFaR, Direct Fact Retrieval (thesis §7.4.2, Baek et al.): every triple of the graph is embedded once in
label form "(subject, predicate, object)"; the question's embedding retrieves the top-n nearest triples
by ANN (Kùzu HNSW, cosine), which are the context of the answer. The thesis's final configuration
(Table 9.7): 150 results, cosine, no question augmentation, no reranking.

Index: `kgqa index build --retriever difar` (kgqa/indexing/label_index.py, part `triples`).
Parameters (`--param`): `top_n` (default 150)."""

from __future__ import annotations

import time

from kgqa.errors import ConfigError
from kgqa.llm.base import ScoredTriple
from kgqa.retrieval.evidence import generate, group_by_subject, sources_and_hubs
from kgqa.retrieval.label_retriever import LabelIndexRetriever
from kgqa.types import Answer

DEFAULT_TOP_N = 150


class DifarRetriever(LabelIndexRetriever):
    """Question embedding -> top-n triples -> answer through the roles."""

    name = "difar"

    def _retrieve(self, question: str) -> Answer:
        params = self.params
        top_n = int(params.extra.get("top_n", DEFAULT_TOP_N))
        if top_n < 1:
            raise ConfigError(f"top_n must be >= 1, got {top_n}")
        t0 = time.perf_counter()
        scored = self.top_triples(question, top_n)
        t1 = time.perf_counter()
        groups = group_by_subject(scored)
        final = generate(self.roles, question, groups)
        sources, hubs = sources_and_hubs(final, groups)
        notes = []
        if params.topic_entity:
            notes.append("DiFaR searches every triple of the graph: the topic entity is not used")
        return Answer(
            question=question,
            answer=final.text,
            sources=sources,
            triples=[st.triple.canonical for st in scored],
            hubs=hubs,
            mode=self.roles.name,
            strategy="direct",
            topic_entity=None,
            components=[],
            timings={"retrieve": t1 - t0, "generate": time.perf_counter() - t1},
            notes=notes,
            result=final.result,
        )

    def top_triples(self, question: str, n: int) -> list[ScoredTriple]:
        """The n triples nearest to the question, nearest first (a text shared by several triples
        counts once per triple)."""
        vector = self.embedder.embed([question])[0]
        hits = self.search.ann("triple", vector, n)
        facts = self.search.facts([h.hash for h in hits])
        out: list[ScoredTriple] = []
        for hit in hits:
            for t in facts.get(hit.hash, []):
                out.append(ScoredTriple(t, hit.similarity, t.subject.id))
        return out[:n]
