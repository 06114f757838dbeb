"""Hub path enumeration of the graph in Postgres in its two forms, one query per hop level and one
recursive CTE (sql/postgres/queries/graph_hub_paths.sql): the same paths (ids, labels, predicates, hash,
text) on the demo graph and on a small graph with the cases the rules decide (cycles, a self-loop, hub
roots inside and at the end of paths, literals, paths longer than the limit), with and without boundary
triples, at every path length limit. Real Postgres."""

from __future__ import annotations

from pathlib import Path

import pytest
from kgqa_procedures.udfs import UdfContext

from kgqa.api import Workspace
from kgqa.config import Settings
from kgqa.demo import demo_graph_path
from kgqa.graph.layout import layout_of

pytestmark = [pytest.mark.postgres]

HEADER = "subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal\n"
# H1 and H2 are hub roots (type Hub); X and Y loop on themselves (Y has no other edge); A -> B -> C -> A is a cycle; D is a long chain.
TRICKY = [
    "H1,cites,H2,First hub,Hub,Second hub,Hub,false",
    "H1,about,A,First hub,Hub,Topic A,Topic,false",
    "A,next,B,Topic A,Topic,Topic B,Topic,false",
    "B,next,C,Topic B,Topic,Topic C,Topic,false",
    "C,next,A,Topic C,Topic,Topic A,Topic,false",
    "C,back,H1,Topic C,Topic,First hub,Hub,false",
    "B,via,H2,Topic B,Topic,Second hub,Hub,false",
    "H2,about,X,Second hub,Hub,Loop,Topic,false",
    "X,same,X,Loop,Topic,Loop,Topic,false",
    "X,year,2020,Loop,Topic,,,true",
    "H1,about,Y,First hub,Hub,Only loop,Topic,false",
    "Y,same,Y,Only loop,Topic,Only loop,Topic,false",
    "H2,chain,D1,Second hub,Hub,D one,Topic,false",
    "D1,chain,D2,D one,Topic,D two,Topic,false",
    "D2,chain,D3,D two,Topic,D three,Topic,false",
    "D3,chain,D4,D three,Topic,D four,Topic,false",
    "D4,chain,D5,D four,Topic,D five,Topic,false",
    "D2,label,done,D two,Topic,,,true",
    "H1,title,First hub,First hub,Hub,,,true",
]


def both_forms(ws: Workspace, hub_type: str, boundary: bool, max_len: int) -> tuple[list, list]:
    """The hub paths of every root of `hub_type`, by hop levels and by the CTE (sorted rows)."""
    layout = layout_of(ws.store)
    ctx = UdfContext(frozenset({hub_type}), None, "any")
    roots = sorted(r[0] for r in layout.hub_root_candidates(ctx))
    ctx.root_ids = set(roots)
    out = []
    for form in ("levels", "cte"):
        layout.path_form = form  # type: ignore[attr-defined]
        rows = list(layout.hub_paths(roots, boundary, max_len, ctx))
        out.append(sorted((r[0], tuple(r[1]), tuple(r[2]), tuple(r[3]), r[4], r[5]) for r in rows))
    return out[0], out[1]


@pytest.fixture
def pg_graph(pg_database, tmp_path):
    def load(path: Path) -> Workspace:
        ws = Workspace(Settings(db_path=tmp_path / "none.kuzu", graph="postgres", store="pgvector", pg_dsn=pg_database))
        ws.load(path)
        return ws

    return load


@pytest.mark.parametrize("boundary", [True, False])
def test_the_cte_gives_the_paths_of_the_hop_levels_on_the_demo(pg_graph, boundary):
    ws = pg_graph(demo_graph_path())
    try:
        for max_len in (1, 2, 3):
            levels, cte = both_forms(ws, "Paper", boundary, max_len)
            assert levels and cte == levels, (max_len, len(levels), len(cte), sorted(set(levels) ^ set(cte))[:3])
    finally:
        ws.close()


@pytest.mark.parametrize("boundary", [True, False])
def test_the_cte_follows_the_rules_on_cycles_loops_roots_and_literals(pg_graph, tmp_path, boundary):
    graph = tmp_path / "tricky.csv"
    graph.write_text(HEADER + "\n".join(TRICKY) + "\n")
    ws = pg_graph(graph)
    try:
        for max_len in (1, 2, 3, 4, 5):
            levels, cte = both_forms(ws, "Hub", boundary, max_len)
            assert levels and cte == levels, (max_len, sorted(set(levels) ^ set(cte))[:3])
        rows = both_forms(ws, "Hub", boundary, 4)[1]
        paths = {r[3]: r[1] for r in rows}
        # a path stops at the limit, never passes through a hub root, and a self-loop never extends one
        assert paths[("chain", "chain", "chain", "chain")] == ("H2", "D1", "D2", "D3", "D4")
        assert all(i not in ("H1", "H2") for r in rows for i in r[1][1:-1])
        assert (("cites",) in paths) is boundary
        assert not any("same" in r[3] for r in rows)
    finally:
        ws.close()
