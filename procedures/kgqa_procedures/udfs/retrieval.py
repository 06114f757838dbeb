"""Retrieval as Cypher functions: Python UDFs that answer a question with HubLink, so a Cypher
query can rank hubs for a question and then match around them, e.g.

    UNWIND kgqa_rank_hubs('Which papers use a controlled experiment?', 3) AS h
    MATCH (p:Entity {id: h.hub_id})-[t:Triple]->(o:Entity) RETURN h.rank, p.label, t.predicate, o.label

They must be registered on a connection other than the one the retrieval queries run on (Kùzu does
not re-enter a connection from inside its own query): see kgqa/frontends/cypher.py."""

from __future__ import annotations

from typing import Any, Protocol

HUB_STRUCT = "STRUCT(rank INT64, hub_id STRING, label STRING, score DOUBLE, cited BOOLEAN)[]"
SOURCE_STRUCT = "STRUCT(n INT64, hub_id STRING, label STRING)[]"


class RetrievalService(Protocol):
    """What the UDFs call (kgqa.frontends.service.QuestionService)."""

    def record(self, question: Any) -> dict[str, Any]:
        """The answer with its sources, triples and hubs."""
        ...

    def triples(self, question: Any, k: Any) -> list[dict[str, Any]]:
        """The top-k supporting triples as (rank, triple)."""
        ...

    def hubs(self, question: Any, k: Any) -> list[dict[str, Any]]:
        """The top-k hubs as (rank, hub_id, label, score, cited)."""
        ...


def register_retrieval_udfs(store: object, service: RetrievalService) -> None:
    """Register kgqa_answer, kgqa_result (the structured result as JSON text), kgqa_sources, kgqa_retrieve_triples and kgqa_rank_hubs on `store`
    (as lambdas: Kùzu reads the annotations of what it registers)."""
    store.register_function("kgqa_answer", lambda q: service.record(q)["answer"], ["STRING"], "STRING")
    store.register_function("kgqa_result", lambda q: service.record(q)["result"], ["STRING"], "STRING")
    store.register_function("kgqa_sources", lambda q: service.record(q)["sources"], ["STRING"], SOURCE_STRUCT)
    store.register_function("kgqa_retrieve_triples", lambda q, k: [r["triple"] for r in service.triples(q, k)],
                            ["STRING", "INT64"], "STRING[]")
    store.register_function("kgqa_rank_hubs", lambda q, k: service.hubs(q, k), ["STRING", "INT64"], HUB_STRUCT)
