"""Python UDFs registered in Kùzu. `register_udfs` is the only caller of create_function."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from kgqa.indexing.verbalise import verbalise
from kgqa.types import Entity, Triple, path_hash


@dataclass
class UdfContext:
    """State the UDFs consult: the hub-root criteria and the current set of hub roots."""

    hub_types: frozenset[str] = frozenset()
    min_out_degree: int | None = None
    criteria_mode: str = "any"
    root_ids: set[str] = field(default_factory=set)
    verbalise_seconds: float = 0.0  # time spent in the path text and path hash UDFs (build phases)

    def timed(self, fn: Callable[..., str]) -> Callable[..., str]:
        """`fn`, adding its run time to `verbalise_seconds` (its signature kept: Kùzu reads it)."""

        @functools.wraps(fn)
        def run(*args: object) -> str:
            start = time.perf_counter()
            try:
                return fn(*args)
            finally:
                self.verbalise_seconds += time.perf_counter() - start

        return run

    def meets_criteria(self, types: list[str] | None, out_degree: int) -> bool:
        """isHubRoot (thesis §4.2.3): type-based and degree-based criteria, combined any/all."""
        checks = []
        if self.hub_types:
            checks.append(bool(self.hub_types.intersection(types or ())))
        if self.min_out_degree is not None:
            checks.append(out_degree >= self.min_out_degree)
        if not checks:
            return False
        return all(checks) if self.criteria_mode == "all" else any(checks)


def _entity_texts(ids: list[str], labels: list[str]) -> list[str]:
    return [lab or i for i, lab in zip(ids, labels)]


def triples_of(ids: list[str], labels: list[str], preds: list[str]) -> tuple[Triple, ...]:
    """Rebuild the triples of a walk given as node ids/labels (n+1) and predicates (n)."""
    nodes = [Entity(i, lab or "") for i, lab in zip(ids, labels)]
    return tuple(Triple(nodes[k], preds[k], nodes[k + 1]) for k in range(len(preds)))


def register_udfs(store: object, ctx: UdfContext) -> None:
    """Register the HubLink UDFs on a GraphStore connection, bound to `ctx`."""
    store.register_function(
        "kgqa_hub_criteria",
        lambda types, deg: ctx.meets_criteria(types, int(deg or 0)),
        ["STRING[]", "INT64"],
        "BOOLEAN",
    )
    store.register_function("kgqa_is_hub_root", lambda entity_id: entity_id in ctx.root_ids, ["STRING"], "BOOLEAN")
    store.register_function(
        "kgqa_path_hash",
        ctx.timed(lambda ids, labels, preds: path_hash(triples_of(ids, labels, preds))),
        ["STRING[]", "STRING[]", "STRING[]"],
        "STRING",
    )
    store.register_function(
        "kgqa_verbalise_path",
        ctx.timed(lambda ids, labels, preds: verbalise(_entity_texts(ids, labels), preds)),
        ["STRING[]", "STRING[]", "STRING[]"],
        "STRING",
    )
