"""Bad input everywhere: each case gives a clear, typed error (through the CLI: a message naming the
problem and a non-zero exit code) and leaves the stored graph and index exactly as they were."""

from __future__ import annotations

import hashlib

import pytest
from kgqa_cli.main import main

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.errors import EntityNotFoundError, IndexMismatchError, IndexMissingError, InputError, KgqaError

GOOD = (
    "subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal\n"
    "P1,venue,V1,Graph QA at Scale,Paper,ICSA,Venue,false\n"
    "P1,publication year,2019,Graph QA at Scale,Paper,,,true\n"
    "P2,venue,V1,Hubs for Retrieval,Paper,ICSA,Venue,false\n"
)


def run_cli(args: list[str], monkeypatch, capsys, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run the `kgqa` entry point in-process (as the console script does): (exit code, stderr)."""
    monkeypatch.setattr("sys.argv", ["kgqa", *args])
    for k, v in (env or {}).items():
        monkeypatch.setenv(k, v)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        main()
    return int(exit_info.value.code or 0), capsys.readouterr().err


@pytest.fixture(scope="module")
def indexed(tmp_path_factory, embedder):
    """A small graph with a built index, shared by the cases (each must leave it unchanged)."""
    root = tmp_path_factory.mktemp("bad")
    (root / "good.csv").write_text(GOOD, encoding="utf-8")
    db = root / "g.kuzu"
    with Workspace.init(Settings(db_path=db), embedder=embedder) as ws:
        ws.load(root / "good.csv")
        ws.build_index(IndexParams(hub_types=("Paper",)))
    return root, db


def snapshot(db) -> str:
    """A digest of every triple, every stored hub path and the index metadata."""
    with Workspace(Settings(db_path=db), read_only=True) as ws:
        rows = ws.store.query(
            "MATCH (s:Entity)-[t:Triple]->(o:Entity) RETURN s.id, t.predicate, o.id, o.label "
            "ORDER BY s.id, t.predicate, o.id"
        )[1]
        paths = ws.store.query("MATCH (p:kgqa_HubPath) RETURN p.hash ORDER BY p.hash")[1]
        meta = ws.store.meta_get("hub_index")
        counts = ws.index_status().counts
    return hashlib.sha256(repr((rows, paths, meta, counts)).encode()).hexdigest()


BAD_FILES = {
    "truncated.json": (b'[{"entity_subject": "R1", "predicate": "p", "entity_obj', "line 1"),
    "columns.csv": (b"subject,predicate,object\nA,p\n", "line 2"),
    "iri.nt": (b"<http://ex.org/a b> <http://ex.org/p> <http://ex.org/c> .\n", "invalid IRI"),
    "latin1.csv": (b"subject,predicate,object\nA,p,caf\xe9\n", "UTF-8"),
    "empty.csv": (b"", "empty"),
    "empty.nt": (b"", "empty"),
    "empty.json": (b"", "empty"),
    "huge.csv": (b"subject,predicate,object\nA,p," + b"x" * 2_000_000 + b"\n", "line 2"),
    "huge.nt": (b'<http://ex.org/a> <http://ex.org/p> "' + b"x" * 2_000_000 + b'" .\n', "line 1"),
    "no_header_fields.tsv": (b"a\tb\n", "line 1"),
    "unknown.xyz": (b"a b c\n", "format"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_malformed_files_are_rejected_and_change_nothing(indexed, name, monkeypatch, capsys):
    root, db = indexed
    content, expected = BAD_FILES[name]
    path = root / name
    path.write_bytes(content)
    before = snapshot(db)
    code, err = run_cli(["--db", str(db), "load", str(path)], monkeypatch, capsys)
    assert code == 3, err
    assert name in err and expected.lower() in err.lower(), err
    assert snapshot(db) == before


def test_bad_questions_and_entities(indexed, embedder):
    root, db = indexed
    before = snapshot(db)
    with Workspace(Settings(db_path=db), embedder=embedder) as ws:
        with pytest.raises(InputError, match="empty"):
            ws.ask("   ")
        with pytest.raises(InputError, match="100000 characters"):
            ws.ask("x" * 100_000)
        with pytest.raises(EntityNotFoundError, match="NOPE"):
            ws.ask("Which venue?", topic_entity="NOPE")
        with pytest.raises(EntityNotFoundError, match="NOPE"):
            ws.build_index(IndexParams(hub_types=("Paper",), start_ids=("NOPE",)))
    assert snapshot(db) == before


def test_index_from_another_model_is_refused(indexed, monkeypatch, capsys):
    root, db = indexed
    before = snapshot(db)
    with Workspace(Settings(db_path=db, embedding_model="another-model")) as ws:
        with pytest.raises(IndexMismatchError, match="all-MiniLM-L6-v2"):
            ws.ask("Which venue?")
    code, err = run_cli(["--db", str(db), "ask", "Which venue?"], monkeypatch, capsys, {"KGQA_EMBEDDING_MODEL": "x"})
    assert code == 5 and "--rebuild" in err
    assert snapshot(db) == before


def test_empty_graph_and_missing_index(tmp_path, embedder):
    with Workspace.init(Settings(db_path=tmp_path / "e.kuzu"), embedder=embedder) as ws:
        with pytest.raises(InputError, match="empty"):
            ws.build_index(IndexParams(hub_types=("Paper",)))
        with pytest.raises(IndexMissingError, match="index build"):
            ws.ask("Anything?")
        (tmp_path / "g.csv").write_text(GOOD, encoding="utf-8")
        ws.load(tmp_path / "g.csv")
        with pytest.raises(InputError, match="no entity matches"):
            ws.build_index(IndexParams(hub_types=("Journal",)))
        assert ws.index_status().info is None


def test_every_library_error_is_typed(indexed):
    root, db = indexed
    with Workspace(Settings(db_path=db)) as ws:
        with pytest.raises(KgqaError):
            ws.load(root / "does-not-exist.csv")


# -- graph edits and index updates (issue 6) ---------------------------------------------------------

TRIPLE = ["-s", "P1", "-p", "venue", "-o", "V2"]
BAD_TRIPLES = {
    "bad IRI subject": (["triples", "add", "-s", "<http://ex.org/a b>", "-p", "venue", "-o", "V1"], 3, "invalid IRI"),
    "IRI without scheme": (["triples", "add", "-s", "<ex.org/a>", "-p", "venue", "-o", "V1"], 3, "no scheme"),
    "unbalanced IRI": (["triples", "add", "-s", "<http://ex.org/a", "-p", "venue", "-o", "V1"], 3, "angle brackets"),
    "IRI with a quote": (["triples", "add", "-s", "P1", "-p", "venue", "-o", 'http://ex.org/"x"'], 3, "invalid IRI"),
    "empty predicate": (["triples", "add", "-s", "P1", "-p", "", "-o", "V1"], 3, "empty predicate"),
    "blank subject": (["triples", "add", "-s", "   ", "-p", "venue", "-o", "V1"], 3, "empty subject"),
    "empty literal": (["triples", "add", "-s", "P1", "-p", "note", "-o", "", "--literal"], 3, "empty object"),
    "control character": (["triples", "add", "-s", "P1", "-p", "ven\x07ue", "-o", "V1"], 3, "control character"),
    "huge literal": (["triples", "add", "-s", "P1", "-p", "note", "-o", "x" * 200_000, "--literal"], 3, "the limit"),
    "missing object": (["triples", "add", "-s", "P1", "-p", "venue"], 3, "missing --object"),
    "file and options": (["triples", "add", "graph.csv", *TRIPLE], 3, "not both"),
    "empty subject label": (["triples", "add", *TRIPLE, "--subject-label", " "], 3, "empty subject label"),
    "delete, unknown entity": (["triples", "delete", "-s", "P1", "-p", "venue", "-o", "NOPE"], 6, "NOPE"),
    "delete, bad IRI": (["triples", "delete", "-s", "<a b>", "-p", "venue", "-o", "V1"], 3, "invalid IRI"),
    "update, bad batch size": (["index", "update", "--hubs-per-batch", "0"], 2, "hubs_per_batch"),
    "build, bad batch size": (["index", "build", "--hubs-per-batch", "-3"], 2, "hubs_per_batch"),
}


@pytest.mark.parametrize("case", sorted(BAD_TRIPLES))
def test_bad_triple_edits_and_update_options_change_nothing(indexed, case, monkeypatch, capsys):
    root, db = indexed
    args, code, expected = BAD_TRIPLES[case]
    before = snapshot(db)
    got, err = run_cli(["--db", str(db), *args], monkeypatch, capsys)
    assert got == code and expected.lower() in err.lower(), err
    assert snapshot(db) == before
    with Workspace(Settings(db_path=db), read_only=True) as ws:
        assert ws.dirty_hubs() == []


def test_bad_files_for_triples_delete_and_add(indexed, monkeypatch, capsys):
    root, db = indexed
    before = snapshot(db)
    for name, content, expected in (
        ("cut.json", b'[{"entity_subject": {"uid": "P1"', "line"),
        ("short.csv", b"subject,predicate,object\nP1,venue\n", "line 2"),
        ("latin.csv", b"subject,predicate,object\nP1,venue,caf\xe9\n", "UTF-8"),
        ("nothing.nt", b"", "empty"),
    ):
        (root / name).write_bytes(content)
        for verb in ("add", "delete"):
            code, err = run_cli(["--db", str(db), "triples", verb, str(root / name)], monkeypatch, capsys)
            assert code == 3 and name in err and expected.lower() in err.lower(), (verb, name, err)
    assert snapshot(db) == before


def test_deleting_a_triple_that_is_not_there_is_reported(indexed, monkeypatch, capsys):
    root, db = indexed
    before = snapshot(db)
    monkeypatch.setattr(
        "sys.argv", ["kgqa", "--db", str(db), "triples", "delete", "-s", "P2", "-p", "venue", "-o", "P1"]
    )
    capsys.readouterr()
    main()  # exits normally
    out = capsys.readouterr().out
    assert "deleted 0 triples (1 not in the graph)" in out and "0 hubs marked dirty" in out
    assert snapshot(db) == before


def test_update_without_index_and_with_nothing_dirty(indexed, tmp_path, monkeypatch, capsys):
    root, db = indexed
    before = snapshot(db)
    monkeypatch.setattr("sys.argv", ["kgqa", "--db", str(db), "index", "update", "--dirty"])
    capsys.readouterr()
    main()
    out = capsys.readouterr().out
    assert "no hub is marked dirty" in out and "index up to date" in out
    assert snapshot(db) == before
    code, err = run_cli(["--db", str(db), "index", "update"], monkeypatch, capsys, {"KGQA_EMBEDDING_MODEL": "x"})
    assert code == 5 and "--rebuild" in err
    assert snapshot(db) == before
    empty = tmp_path / "noindex.kuzu"
    Workspace.init(Settings(db_path=empty)).close()
    code, err = run_cli(["--db", str(empty), "index", "update"], monkeypatch, capsys)
    assert code == 5 and "no HubLink index to update" in err
    code, err = run_cli(["--db", str(tmp_path / "missing.kuzu"), "triples", "delete", *TRIPLE], monkeypatch, capsys)
    assert code == 4 and "kgqa init" in err
    assert not (tmp_path / "missing.kuzu").exists()
