"""Hypothesis-generated malformed files for every loader (CSV, TSV, N-Triples, Turtle, ORKG JSON):
a valid sample mutated by inserted control characters, quotes, brackets and delimiters, invalid
UTF-8, deleted slices, truncation and repeated lines. Every file either loads with ids, labels,
types and predicates free of control characters, or is refused with an InputError that names the
file; no other exception escapes. A refused file loaded into an indexed database changes nothing.
Deterministic (derandomize) and bounded, so CI is stable."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_state import GRAPH_CSV, workspace_state

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings
from kgqa.errors import InputError
from kgqa.graph.loaders import get_loader
from kgqa.graph.loaders.base import TripleRecord
from kgqa.graph.writer import checked, control_character

pytestmark = pytest.mark.slow

SAMPLES: dict[str, tuple[str, bytes]] = {
    "csv": ("csv", GRAPH_CSV.encode()),
    "tsv": ("tsv", b"subject\tpredicate\tobject\tobject_is_literal\nP1\tvenue\tV1\tfalse\nP1\tyear\t2019\ttrue\n"),
    "nt": (
        "nt",
        b"<http://ex.org/P1> <http://ex.org/venue> <http://ex.org/V1> .\n"
        b'<http://ex.org/P1> <http://www.w3.org/2000/01/rdf-schema#label> "Graph QA"@en .\n'
        b'<http://ex.org/P1> <http://ex.org/year> "2019"^^<http://www.w3.org/2001/XMLSchema#gYear> .\n',
    ),
    "ttl": (
        "ttl",
        b"@prefix ex: <http://ex.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        b'ex:P1 a ex:Paper ; rdfs:label "Graph QA" ; ex:venue ex:V1 .\nex:V1 rdfs:label "ICSA" .\n',
    ),
    "json": (
        "orkg-json",
        b'[{"entity_subject": {"uid": "R1", "text": "Graph QA", "knowledge_types": ["Paper"]},'
        b' "predicate": "venue", "entity_object": {"uid": "R2", "text": "ICSA"}},\n'
        b' {"entity_subject": {"uid": "R1", "text": "Graph QA"}, "predicate": "year",'
        b' "entity_object": {"uid": "L1", "text": "2019"}}]\n',
    ),
}

#: Characters a malformed file is made of: C0 controls (NUL included), DEL, syntax characters of
#: the formats, a BOM, and bytes that are not UTF-8.
NASTY = [bytes([c]) for c in range(0, 32)] + [
    b"\x7f",
    b'"',
    b"'",
    b"<",
    b">",
    b",",
    b"\t",
    b"\\",
    b"{",
    b"}",
    b"[",
    b"]",
    b":",
    b";",
    b".",
    b"@",
    b"#",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xc3",
    b"\\u0000",
    b"\\u001b",
    b"\xc3\xa9",
]


@st.composite
def malformed(draw, sample: bytes) -> bytes:
    data = bytearray(sample)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "truncate", "replace", "repeat"]))
        pos = draw(st.integers(0, len(data)))
        if kind == "insert":
            data[pos:pos] = draw(st.sampled_from(NASTY))
        elif kind == "delete":
            del data[pos : pos + draw(st.integers(1, 12))]
        elif kind == "truncate":
            del data[pos:]
        elif kind == "replace" and pos < len(data):
            data[pos] = draw(st.integers(0, 255))
        elif kind == "repeat":
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, max(len(lines) - 1, 0)))
            lines.insert(i, lines[i])
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def parse(fmt: str, path) -> str:
    """'loaded' (every record clean) or 'rejected' (InputError naming the file)."""
    try:
        records = list(checked(get_loader(fmt).records(path), str(path)))
    except InputError as exc:
        assert str(path) in str(exc), str(exc)
        return "rejected"
    for rec in records:
        entities = (rec.subject, rec.object) if isinstance(rec, TripleRecord) else (rec.entity,)
        for e in entities:
            for text in (e.id, *(e.types or ())):
                assert control_character(text) is None, (text, rec)
            assert control_character(e.label or "", e.is_literal) is None, (e.label, rec)
        if isinstance(rec, TripleRecord):
            assert control_character(rec.predicate) is None, rec
    return "loaded"


@pytest.fixture(scope="module")
def indexed_ws(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("fuzz")
    (root / "graph.csv").write_text(GRAPH_CSV, encoding="utf-8")
    ws = Workspace.init(Settings(db_path=root / "fuzz.kuzu"), embedder=embedder)
    ws.load(root / "graph.csv")
    ws.build_index(IndexParams(hub_types=("Paper",)))
    yield ws, root
    ws.close()


@pytest.mark.parametrize("ext", sorted(SAMPLES))
def test_malformed_files_are_loaded_clean_or_refused_whole(ext, indexed_ws):
    ws, root = indexed_ws
    fmt, sample = SAMPLES[ext]
    path = root / f"fuzz.{ext}"
    path.write_bytes(sample)
    assert parse(fmt, path) == "loaded"  # the unmutated sample is valid
    before = workspace_state(ws)
    outcomes: dict[str, int] = {}

    @settings(
        max_examples=60,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=malformed(sample))
    def check(data: bytes) -> None:
        path.write_bytes(data)
        outcome = parse(fmt, path)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        if outcome == "rejected":
            with pytest.raises(InputError):
                ws.load(path, fmt)
            assert workspace_state(ws) == before

    check()
    assert outcomes.get("rejected", 0) >= 10, outcomes  # the mutations do produce malformed files
