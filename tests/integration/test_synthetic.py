"""The synthetic scholarly graphs of the scale benchmark: seeded, sized, loadable into real Kùzu,
and every golden triple of their questions is in the loaded graph."""

from __future__ import annotations

import ast
import csv

import pytest

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.errors import ConfigError
from kgqa.synthetic.generator import generate


def test_same_seed_same_files_other_seed_other_graph(tmp_path):
    a = generate(tmp_path / "a", 2_000, seed=5, questions=30)
    b = generate(tmp_path / "b", 2_000, seed=5, questions=30)
    c = generate(tmp_path / "c", 2_000, seed=6, questions=30)
    assert a.graph_file.read_bytes() == b.graph_file.read_bytes()
    assert a.questions_file.read_bytes() == b.questions_file.read_bytes()
    assert a.graph_file.read_bytes() != c.graph_file.read_bytes()
    assert 2_000 <= a.triples < 2_000 + 40  # the last paper is completed, nothing more
    assert a.questions == 30 and len(a.by_kind) == 10


@pytest.mark.parametrize("triples, questions", [(10, 5), (100_000_000, 5), (1_000, -1)])
def test_bad_sizes_are_refused(tmp_path, triples, questions):
    with pytest.raises(ConfigError):
        generate(tmp_path, triples, questions=questions)


def test_loaded_graph_holds_every_golden_triple_and_hubs_have_paths_of_1_to_4(tmp_path):
    gen = generate(tmp_path / "g", 3_000, seed=11, questions=60)
    ws = Workspace(Settings(db_path=tmp_path / "db.kuzu"), create=True)
    try:
        report = ws.load(gen.graph_file)
        assert report.triples_total == gen.triples  # no triple is written twice
        assert ws.load(gen.graph_file).triples_added == 0
        with open(gen.questions_file, encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
        assert len(rows) == 60
        golden = [t for r in rows for t in ast.literal_eval(r["golden_triples"])]
        subjects = sorted({t[1:].split(":", 1)[0] for t in golden})
        stored = set()
        for s_id, s_label, _, pred, o_id, o_label, o_lit in ws.store.run("graph/out_edges", {"ids": subjects}):
            obj = o_label if o_lit else f"{o_id}:{o_label}"
            stored.add(f"({s_id}:{s_label}, {pred}, {obj})")
        missing = [t for t in golden if t not in stored]
        assert not missing, missing[:3]
        topics = {r["topic_entity_id"] for r in rows}
        found = {r[0] for r in ws.store.run("graph/entities_by_ids", {"ids": sorted(topics)})}
        assert found == topics
        dry = ws.build_index(IndexParams(), dry_run=True)
        assert dry.hubs_rebuilt == gen.papers
        from kgqa_procedures.udfs import UdfContext, register_udfs

        from kgqa.indexing.paths import enumerate_paths

        ctx = UdfContext(frozenset({"Paper"}))
        ctx.root_ids = {f"P{i:07d}" for i in range(1, gen.papers + 1)}
        register_udfs(ws.store, ctx)
        by_root, _, _ = enumerate_paths(ws.store, ["P0000001", "P0000002", "P0000003"], IndexParams())
        lengths = {len(p.triples) for paths in by_root.values() for p in paths}
        assert lengths == {1, 2, 3, 4}
    finally:
        ws.close()
