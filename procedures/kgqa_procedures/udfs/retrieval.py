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
TRIPLE_STRUCT = "STRUCT(rank INT64, triple STRING)[]"
ASK_STRUCT = f"STRUCT(answer STRING, result STRING, sources {SOURCE_STRUCT}, triples STRING[])"


def _or_null(fn: Any, arity: int) -> Any:
    """`fn` with NULL in, NULL out (as in DuckDB and Postgres), as a lambda of exactly `arity` arguments."""
    if arity == 1:
        return lambda q: None if q is None else fn(q)
    return lambda q, k: None if q is None or k is None else fn(q, k)


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
    """Register on `store` (as lambdas: Kùzu reads the annotations of what it registers) the names
    shared with Postgres and DuckDB (docs/databases.md): kgqa_ask(q) (answer, result, sources,
    triples), kgqa_retrieve(q, k) ((rank, triple) list), kgqa_hubs(q, k); and kgqa_answer,
    kgqa_result, kgqa_sources, with the deprecated kgqa_retrieve_triples and kgqa_rank_hubs."""

    def ask(q: Any) -> dict[str, Any]:
        r = service.record(q)
        return {"answer": r["answer"], "result": r["result"], "sources": r["sources"], "triples": r["triples"]}

    udfs: list[tuple[str, Any, list[str], str]] = [
        ("kgqa_ask", ask, ["STRING"], ASK_STRUCT),
        ("kgqa_retrieve", service.triples, ["STRING", "INT64"], TRIPLE_STRUCT),
        ("kgqa_hubs", service.hubs, ["STRING", "INT64"], HUB_STRUCT),
        ("kgqa_answer", lambda q: service.record(q)["answer"], ["STRING"], "STRING"),
        ("kgqa_result", lambda q: service.record(q)["result"], ["STRING"], "STRING"),
        ("kgqa_sources", lambda q: service.record(q)["sources"], ["STRING"], SOURCE_STRUCT),
        (
            "kgqa_retrieve_triples",
            lambda q, k: [r["triple"] for r in service.triples(q, k)],
            ["STRING", "INT64"],
            "STRING[]",
        ),
        ("kgqa_rank_hubs", service.hubs, ["STRING", "INT64"], HUB_STRUCT),
    ]
    for name, fn, params, returns in udfs:
        store.register_function(name, _or_null(fn, len(params)), params, returns)
