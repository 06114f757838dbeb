"""Input-file loaders: ORKG JSON, CSV/TSV, N-Triples, Turtle, and the format registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgqa.errors import InputError, UnsupportedFormatError
from kgqa.graph.loaders import FORMATS, LOADERS, detect_format, get_loader
from kgqa.graph.loaders.base import EntityOnlyRecord, EntityRecord, Record, TripleRecord
from kgqa.graph.loaders.delimited import DelimitedLoader
from kgqa.graph.loaders.orkg_json import OrkgJsonLoader
from kgqa.graph.loaders.rdf import NTriplesLoader, TurtleLoader, humanize, local_name
from kgqa.types import name_from_id, synthetic_literal_id

ORKG_GV3 = Path("/work/shared/bench/orkg/graph_gv3.json")
EX = "http://example.org/"
XSD = "http://www.w3.org/2001/XMLSchema#"


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


def load(loader: object, path: Path) -> list[Record]:
    return list(loader.records(path))  # type: ignore[attr-defined]


def load_error(loader: object, path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        load(loader, path)
    err = info.value
    assert err.source == str(path)
    assert str(path) in str(err)
    return err


def assert_where(err: InputError, line: int | None, field: str | None) -> None:
    assert err.line == line, str(err)
    assert err.field == field, str(err)
    if line is not None:
        assert f"line {line}" in str(err)
    if field is not None:
        assert f"field '{field}'" in str(err)


# -- ORKG JSON ----------------------------------------------------------------------------------

ORKG_SMALL = """[
  {
    "entity_subject": {"uid": "R1", "text": "Paper A", "knowledge_types": ["Paper"]},
    "predicate": "publication year",
    "entity_object": {"uid": "L7", "text": "2019", "knowledge_types": []}
  },
  {"uid": "R2", "text": "Café ☕", "knowledge_types": ["Venue", "Thing"]},
  {"uid": "L8"},
  {
    "entity_subject": {"uid": "R1", "text": "Paper A", "knowledge_types": ["Paper"]},
    "predicate": "venue",
    "entity_object": {"uid": "R2", "text": "Café ☕", "knowledge_types": ["Venue"]}
  }
]
"""


def test_orkg_parses_triples_and_entities(tmp_path: Path) -> None:
    path = write(tmp_path, "g.json", ORKG_SMALL)
    records = load(OrkgJsonLoader(), path)
    assert records == [
        TripleRecord(
            EntityRecord("R1", "Paper A", ("Paper",), False),
            "publication year",
            EntityRecord("L7", "2019", (), True),
            2,
        ),
        EntityOnlyRecord(EntityRecord("R2", "Café ☕", ("Venue", "Thing"), False), 7),
        EntityOnlyRecord(EntityRecord("L8", None, None, True), 8),
        TripleRecord(
            EntityRecord("R1", "Paper A", ("Paper",), False),
            "venue",
            EntityRecord("R2", "Café ☕", ("Venue",), False),
            9,
        ),
    ]
    assert OrkgJsonLoader.format_name == "orkg-json"


def test_orkg_literal_rule_is_l_followed_by_digits(tmp_path: Path) -> None:
    entities = [{"uid": uid} for uid in ("L1", "L", "LX1", "R5", "l3", "L12a", "C4")]
    path = write(tmp_path, "g.json", json.dumps(entities))
    flags = {r.entity.id: r.entity.is_literal for r in load(OrkgJsonLoader(), path)}
    assert flags == {"L1": True, "L": False, "LX1": False, "R5": False, "l3": False, "L12a": False, "C4": False}


@pytest.mark.parametrize("chunk_size", [1, 3, 7, 64])
def test_orkg_small_chunks_give_the_same_records(tmp_path: Path, chunk_size: int) -> None:
    path = write(tmp_path, "g.json", ORKG_SMALL)
    assert load(OrkgJsonLoader(chunk_size), path) == load(OrkgJsonLoader(), path)


def test_orkg_empty_array_and_bom(tmp_path: Path) -> None:
    assert load(OrkgJsonLoader(), write(tmp_path, "e.json", " [ ]\n")) == []
    bom = write(tmp_path, "b.json", "\ufeff".encode() + b'[{"uid": "R1"}]')
    assert load(OrkgJsonLoader(), bom) == [EntityOnlyRecord(EntityRecord("R1"), 1)]


@pytest.mark.skipif(not ORKG_GV3.exists(), reason="ORKG benchmark graph not available")
def test_orkg_real_graph_gv3() -> None:
    records = load(OrkgJsonLoader(), ORKG_GV3)
    triples = [r for r in records if isinstance(r, TripleRecord)]
    entities = [r for r in records if isinstance(r, EntityOnlyRecord)]
    assert len(triples) == 4488
    assert len(entities) == 4336
    first = triples[0]
    assert (first.subject.id, first.predicate, first.object.id, first.line) == (
        "R725420",
        "Template of research field",
        "R659055",
        2,
    )
    assert all(r.object.is_literal == r.object.id.startswith("L") for r in triples)
    assert not any(r.subject.is_literal for r in triples)
    lines = [r.line for r in records]
    assert lines == sorted(lines) and len(set(lines)) == len(lines)
    papers = {r.entity.id for r in entities if "Paper" in (r.entity.types or ())}
    assert len(papers) == 153
    # streaming agrees with a plain json.load of the whole file
    data = json.loads(ORKG_GV3.read_text(encoding="utf-8"))
    assert [r.predicate for r in triples] == [d["predicate"] for d in data if "predicate" in d]


def _triple(uid_s: str = "R1", uid_o: str = "R2", predicate: object = "p") -> dict[str, object]:
    return {
        "entity_subject": {"uid": uid_s, "text": "s", "knowledge_types": []},
        "predicate": predicate,
        "entity_object": {"uid": uid_o, "text": "o", "knowledge_types": []},
    }


ORKG_ERRORS: list[tuple[str, str | bytes, int | None, str | None, str]] = [
    ("object-top", '{"uid": "R1"}', 1, None, "JSON array"),
    ("truncated", '[\n{"uid": "R1"},\n{"uid": "R2", "te', 3, None, "truncated"),
    ("unclosed", '[\n{"uid": "R1"},\n{"uid": "R2"}\n', 4, None, "not closed"),
    ("invalid", '[\n{"uid": "R1"},\n{"uid": "R2",, "text": "x"}\n]', 3, None, "record 2"),
    ("bad-separator", '[\n{"uid": "R1"}\n{"uid": "R2"}]', 3, None, "after record 1"),
    ("trailing", '[{"uid": "R1"}]\n\n[]', 3, None, "after the end"),
    ("not-object", '[\n{"uid": "R1"},\n  [1, 2]\n]', 3, None, "record 2"),
    ("missing-uid", '[\n\n{"text": "x", "knowledge_types": []}]', 3, "uid", "'uid' is missing"),
    ("empty-uid", '[\n{"uid": "R1"},\n{"uid": "  "}]', 3, "uid", "record 2"),
    ("number-uid", '[{"uid": 5}]', 1, "uid", "record 1"),
    ("text-not-string", '[\n{"uid": "R1", "text": 5}]', 2, "text", "record 1"),
    ("types-not-list", '[\n{"uid": "R1", "knowledge_types": "Paper"}]', 2, "knowledge_types", "record 1"),
    ("types-not-strings", '[\n{"uid": "R1", "knowledge_types": ["Paper", 3]}]', 2, "knowledge_types", "record 1"),
    (
        "missing-predicate",
        "[\n" + json.dumps({k: v for k, v in _triple().items() if k != "predicate"}) + "]",
        2,
        "predicate",
        "record 1",
    ),
    (
        "predicate-not-string",
        '[\n{"uid": "R0"},\n' + json.dumps(_triple(predicate=["p"])) + "]",
        3,
        "predicate",
        "record 2",
    ),
    ("subject-uid-missing", "[" + json.dumps(_triple(uid_s="")) + "]", 1, "entity_subject.uid", "record 1"),
    (
        "object-not-object",
        '[{"entity_subject": {"uid": "R1"}, "predicate": "p", "entity_object": "R2"}]',
        1,
        "entity_object",
        "record 1",
    ),
    ("neither", '[\n{"uid": "R1"},\n\n  {"name": "x"}]', 4, None, "neither a triple"),
    ("non-utf8", b'[\n{"uid": "R1"},\n{"uid": "R\xff2"}]', 3, None, "UTF-8"),
    ("empty", "", None, None, "empty"),
    ("whitespace-only", "\n \n", None, None, "empty"),
]


@pytest.mark.parametrize("chunk_size", [5, 1 << 16])
@pytest.mark.parametrize(
    ("content", "line", "field", "fragment"), [case[1:] for case in ORKG_ERRORS], ids=[case[0] for case in ORKG_ERRORS]
)
def test_orkg_errors_name_file_line_and_field(
    tmp_path: Path, content: str | bytes, line: int | None, field: str | None, fragment: str, chunk_size: int
) -> None:
    err = load_error(OrkgJsonLoader(chunk_size), write(tmp_path, "bad.json", content))
    assert_where(err, line, field)
    assert fragment in str(err)


def test_orkg_non_utf8_line_is_right_with_tiny_chunks(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", b'[\n{"uid": "R1"},\n\n{"uid": "\xc3\xa9\xff"}]')
    err = load_error(OrkgJsonLoader(chunk_size=2), path)
    assert_where(err, 4, None)


def test_orkg_records_before_an_error_are_yielded(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", '[{"uid": "R1"},\n{"uid": 2}]')
    it = OrkgJsonLoader().records(path)
    assert next(it) == EntityOnlyRecord(EntityRecord("R1"), 1)
    with pytest.raises(InputError):
        next(it)


# -- CSV / TSV ----------------------------------------------------------------------------------


def test_csv_without_header(tmp_path: Path) -> None:
    path = write(tmp_path, "g.csv", 'R1,has author,R2\n\n  R2 , name, Alice\n"R3","a, b",R4\n')
    assert load(DelimitedLoader(","), path) == [
        TripleRecord(EntityRecord("R1"), "has author", EntityRecord("R2"), 1),
        TripleRecord(EntityRecord("R2"), "name", EntityRecord("Alice"), 3),
        TripleRecord(EntityRecord("R3"), "a, b", EntityRecord("R4"), 4),
    ]


def test_csv_header_with_labels_types_and_literals(tmp_path: Path) -> None:
    content = (
        " Subject ,PREDICATE,object,subject_label,subject_types,object_label,object_types,"
        "object_is_literal\n"
        "R1,year,L1,Paper A,Paper|Thing,2019,,yes\n"
        "R1,title,A title,,,,,TRUE\n"
        "R1,venue,R2,,,ICSA,Venue,\n"
        'R1,note,"multi\nline",,,,,0\n'
        "R1,count,7,,,,, 1 \n"
    )
    records = load(DelimitedLoader(","), write(tmp_path, "g.csv", content))
    assert records == [
        TripleRecord(
            EntityRecord("R1", "Paper A", ("Paper", "Thing")), "year", EntityRecord("L1", "2019", None, True), 2
        ),
        TripleRecord(
            EntityRecord("R1"), "title", EntityRecord(synthetic_literal_id("A title"), "A title", None, True), 3
        ),
        TripleRecord(EntityRecord("R1"), "venue", EntityRecord("R2", "ICSA", ("Venue",), False), 4),
        TripleRecord(EntityRecord("R1"), "note", EntityRecord("multi\nline"), 5),
        TripleRecord(EntityRecord("R1"), "count", EntityRecord(synthetic_literal_id("7"), "7", None, True), 7),
    ]


def test_tsv_with_header(tmp_path: Path) -> None:
    content = (
        "subject\tpredicate\tobject\tobject_label\tobject_is_literal\n"
        "R1\thas, comma\tL5\tSome, text\tno\n"
        "R1\tyear\t2020\t\t1\n"
    )
    loader = get_loader("tsv")
    assert loader.format_name == "tsv"
    assert load(loader, write(tmp_path, "g.tsv", content)) == [
        TripleRecord(EntityRecord("R1"), "has, comma", EntityRecord("L5", "Some, text"), 2),
        TripleRecord(EntityRecord("R1"), "year", EntityRecord(synthetic_literal_id("2020"), "2020", None, True), 3),
    ]


def test_csv_missing_columns_mean_not_stated(tmp_path: Path) -> None:
    content = "object,predicate,subject\nR2,p,R1\n"
    (record,) = load(DelimitedLoader(","), write(tmp_path, "g.csv", content))
    assert isinstance(record, TripleRecord)
    assert record.subject == EntityRecord("R1", None, None, False)
    assert record.object == EntityRecord("R2", None, None, False)
    assert record.subject.label is None and record.subject.types is None


def test_csv_header_only_yields_nothing(tmp_path: Path) -> None:
    assert load(DelimitedLoader(","), write(tmp_path, "g.csv", "subject,predicate,object\n")) == []


HEADER = "subject,predicate,object,object_is_literal\n"
CSV_ERRORS: list[tuple[str, str | bytes, int | None, str | None, str]] = [
    ("too-few", "R1,p,R2\nR1,p\n", 2, None, "expected 3 cells (subject, predicate, object), got 2"),
    ("too-many", "R1,p,R2,x\n", 1, None, "expected 3 cells"),
    ("header-count", HEADER + "R1,p,R2,no\n\nR1,p,R2\n", 4, None, "expected 4 cells"),
    ("empty-subject", "R1,p,R2\n ,p,R2\n", 2, "subject", "empty subject"),
    ("empty-predicate", HEADER + "R1,,R2,no\n", 2, "predicate", "empty predicate"),
    ("empty-object", "R1,p,\n", 1, "object", "empty object"),
    ("unknown-column", "subject,predicate,objekt\nR1,p,R2\n", 1, "objekt", "unknown header column"),
    ("missing-column", "subject,predicate,object_label\nR1,p,x\n", 1, "object", "no 'object'"),
    ("duplicate-column", "subject,predicate,object,Subject\n", 1, "subject", "twice"),
    ("bad-boolean", HEADER + "R1,p,R2,maybe\n", 2, "object_is_literal", "'maybe'"),
    ("non-utf8", b"R1,p,R2\nR1,p,R2\nR1,\xe9t\xe9,R3\n", 3, None, "UTF-8"),
    ("empty", "", None, None, "empty"),
    ("blank-lines-only", "\n   \n\n", None, None, "empty"),
]


@pytest.mark.parametrize(
    ("content", "line", "field", "fragment"), [case[1:] for case in CSV_ERRORS], ids=[case[0] for case in CSV_ERRORS]
)
def test_csv_errors_name_file_line_and_field(
    tmp_path: Path, content: str | bytes, line: int | None, field: str | None, fragment: str
) -> None:
    err = load_error(DelimitedLoader(","), write(tmp_path, "bad.csv", content))
    assert_where(err, line, field)
    assert fragment in str(err)


def test_tsv_error_reports_line_after_multiline_field(tmp_path: Path) -> None:
    content = 'R1\tp\t"two\nlines"\nR1\tp\n'
    err = load_error(DelimitedLoader("\t"), write(tmp_path, "bad.tsv", content))
    assert_where(err, 3, None)


# -- N-Triples ----------------------------------------------------------------------------------

NT_SMALL = f"""# a comment
<{EX}paper1> <{EX}publicationYear> "2019"^^<{XSD}gYear> .
<{EX}paper1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{EX}onto#Paper> .

<{EX}paper1> <http://www.w3.org/2000/01/rdf-schema#label> "Paper \\"One\\"\\n\\u00e9\\U0001F600" .
<{EX}paper1> <{EX}has_author> _:b1 .   # trailing comment
_:b1 <http://www.w3.org/2004/02/skos/core#prefLabel> "Alice"@EN-gb .
_:b1 <{EX}name> "Alice"@en .
\t<{EX}paper1> <{EX}title> "T\\t1".
"""


def test_ntriples_parses_terms_and_maps_records(tmp_path: Path) -> None:
    records = load(NTriplesLoader(), write(tmp_path, "g.nt", NT_SMALL))
    assert records == [
        TripleRecord(
            EntityRecord(f"{EX}paper1"),
            "publication year",
            EntityRecord(synthetic_literal_id("2019", f"{XSD}gYear"), "2019", None, True),
            2,
            f"{EX}publicationYear",
        ),
        EntityOnlyRecord(EntityRecord(f"{EX}paper1", types=("Paper",)), 3),
        EntityOnlyRecord(EntityRecord(f"{EX}paper1", label='Paper "One"\né\U0001f600'), 5),
        TripleRecord(EntityRecord(f"{EX}paper1"), "has author", EntityRecord("_:b1"), 6, f"{EX}has_author"),
        EntityOnlyRecord(EntityRecord("_:b1", label="Alice"), 7),
        TripleRecord(
            EntityRecord("_:b1"),
            "name",
            EntityRecord(synthetic_literal_id("Alice", "@en"), "Alice", None, True),
            8,
            f"{EX}name",
        ),
        TripleRecord(
            EntityRecord(f"{EX}paper1"),
            "title",
            EntityRecord(synthetic_literal_id("T\t1"), "T\t1", None, True),
            9,
            f"{EX}title",
        ),
    ]


def test_ntriples_xsd_string_is_a_plain_literal(tmp_path: Path) -> None:
    content = (
        f'<{EX}a> <{EX}p> "x" .\n<{EX}a> <{EX}p> "x"^^<{XSD}string> .\n'
        f'<{EX}a> <{EX}p> "x"@de .\n<{EX}a> <{EX}p> <urn:isbn:123> .\n'
    )
    objects = [
        r.object for r in load(NTriplesLoader(), write(tmp_path, "g.nt", content)) if isinstance(r, TripleRecord)
    ]
    assert objects[0] == objects[1]
    assert objects[2].id == synthetic_literal_id("x", "@de") != objects[0].id
    assert objects[3] == EntityRecord("urn:isbn:123")


def test_ntriples_load_twice_is_identical(tmp_path: Path) -> None:
    path = write(tmp_path, "g.nt", f'_:x <{EX}p> _:y .\n_:y <{EX}q> "v" .\n')
    first = load(NTriplesLoader(), path)
    assert first == load(NTriplesLoader(), path)
    assert [r.subject.id for r in first if isinstance(r, TripleRecord)] == ["_:x", "_:y"]


NT_ERRORS: list[tuple[str, str | bytes, int, str | None, str]] = [
    ("iri-space", f"<{EX}a> <{EX}p> <{EX}b> .\n<{EX}a b> <{EX}p> <{EX}b> .\n", 2, "subject", "' '"),
    ("iri-no-scheme", f"\n<{EX}a> <p> <{EX}b> .\n", 2, "predicate", "no scheme"),
    ("iri-brace", f"<{EX}a> <{EX}p> <{EX}b{{x}}> .\n", 1, "object", "'{'"),
    ("iri-caret", f"<{EX}a> <{EX}p^x> <{EX}b> .\n", 1, "predicate", "'^'"),
    ("iri-escaped-space", f"<{EX}a> <{EX}p> <{EX}b\\u0020c> .\n", 1, "object", "' '"),
    ("iri-control", f"<{EX}a\x01> <{EX}p> <{EX}b> .\n", 1, "subject", "not allowed"),
    ("literal-subject", f'"a" <{EX}p> <{EX}b> .\n', 1, "subject", "expected an IRI"),
    ("bnode-predicate", f"<{EX}a> _:p <{EX}b> .\n", 1, "predicate", "expected an IRI"),
    ("unterminated-literal", f'<{EX}a> <{EX}p> "abc .\n', 1, "object", "unterminated"),
    ("bad-escape", f'<{EX}a> <{EX}p> "a\\qb" .\n', 1, "object", "invalid escape"),
    ("short-unicode", f'<{EX}a> <{EX}p> "a\\u12" .\n', 1, "object", "\\u escape"),
    ("bad-lang", f'<{EX}a> <{EX}p> "a"@ .\n', 1, "object", "language tag"),
    ("unterminated-iri", f"<{EX}a> <{EX}p> <{EX}b .\n", 1, "object", "unterminated IRI"),
    ("missing-dot", f"<{EX}a> <{EX}p> <{EX}b>\n", 1, None, "' .'"),
    ("junk-after-dot", f"<{EX}a> <{EX}p> <{EX}b> . <{EX}c>\n", 1, None, "unexpected text"),
    ("non-utf8", f"<{EX}a> <{EX}p> <{EX}b> .\n\n".encode() + b'<http://e/a> <http://e/p> "\xff" .\n', 3, None, "UTF-8"),
]


@pytest.mark.parametrize(
    ("content", "line", "field", "fragment"), [case[1:] for case in NT_ERRORS], ids=[case[0] for case in NT_ERRORS]
)
def test_ntriples_errors_name_file_line_and_field(
    tmp_path: Path, content: str | bytes, line: int, field: str | None, fragment: str
) -> None:
    err = load_error(NTriplesLoader(), write(tmp_path, "bad.nt", content))
    assert_where(err, line, field)
    assert fragment in str(err)


# -- Turtle -------------------------------------------------------------------------------------

TTL_SMALL = f"""@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <{XSD}> .

ex:paper1 a ex:Paper ;
    rdfs:label "Paper One"@en ;
    ex:publicationYear "2019"^^xsd:gYear ;
    ex:hasAuthor [ ex:name "Alice" ; ex:orcid <https://orcid.org/0000-0001> ] ,
                 [ ex:name "Bob" ] .
"""


def test_turtle_maps_records(tmp_path: Path) -> None:
    records = load(TurtleLoader(), write(tmp_path, "g.ttl", TTL_SMALL))
    assert all(r.line == 0 for r in records)
    entity_only = [r.entity for r in records if isinstance(r, EntityOnlyRecord)]
    assert sorted(entity_only, key=repr) == sorted(
        [
            EntityRecord(f"{EX}paper1", types=("Paper",)),
            EntityRecord(f"{EX}paper1", label="Paper One"),
        ],
        key=repr,
    )
    triples = [r for r in records if isinstance(r, TripleRecord)]
    by_pred: dict[str, list[TripleRecord]] = {}
    for t in triples:
        by_pred.setdefault(t.predicate, []).append(t)
    assert set(by_pred) == {"publication year", "has author", "name", "orcid"}
    (year,) = by_pred["publication year"]
    assert year.subject == EntityRecord(f"{EX}paper1")
    assert year.predicate_id == f"{EX}publicationYear"
    assert year.object == EntityRecord(synthetic_literal_id("2019", f"{XSD}gYear"), "2019", None, True)
    authors = {t.object.id for t in by_pred["has author"]}
    assert len(authors) == 2 and all(a.startswith("_:") for a in authors)
    names = {t.subject.id: t.object.label for t in by_pred["name"]}
    assert set(names) == authors and sorted(names.values()) == ["Alice", "Bob"]
    assert all(not t.subject.is_literal and t.object.is_literal for t in by_pred["name"])
    (orcid,) = by_pred["orcid"]
    assert orcid.object == EntityRecord("https://orcid.org/0000-0001")


def test_turtle_and_ntriples_agree_on_iris_and_literals(tmp_path: Path) -> None:
    nt = (
        f'<{EX}a> <{EX}has_title> "T"@EN .\n<{EX}a> <{EX}year> "5"^^<{XSD}integer> .\n'
        f"<{EX}a> <{EX}cites> <{EX}b> .\n<{EX}b> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
        f" <{EX}Paper> .\n"
    )
    ttl = f'@prefix ex: <{EX}> .\nex:a ex:has_title "T"@EN ; ex:year 5 ; ex:cites ex:b .\nex:b a ex:Paper .\n'
    from_nt = load(NTriplesLoader(), write(tmp_path, "g.nt", nt))
    from_ttl = load(TurtleLoader(), write(tmp_path, "g.ttl", ttl))

    def strip_line(r: Record) -> tuple[object, ...]:
        if isinstance(r, TripleRecord):
            return (r.subject, r.predicate, r.object, r.predicate_id)
        return (r.entity,)

    assert sorted(map(strip_line, from_nt), key=repr) == sorted(map(strip_line, from_ttl), key=repr)


def test_turtle_blank_node_ids_are_stable(tmp_path: Path) -> None:
    path = write(tmp_path, "g.ttl", TTL_SMALL)
    first = load(TurtleLoader(), path)
    second = load(TurtleLoader(), path)
    assert first == second
    # the ids do not depend on the labels or order the file uses for its blank nodes
    relabelled = f"""@prefix ex: <{EX}> .
_:zz ex:name "Bob" .
ex:paper1 ex:hasAuthor _:q1, _:zz .
_:q1 ex:orcid <https://orcid.org/0000-0001> ; ex:name "Alice" .
ex:paper1 <http://www.w3.org/2000/01/rdf-schema#label> "Paper One"@en .
ex:paper1 a ex:Paper ; ex:publicationYear "2019"^^<{XSD}gYear> .
"""
    assert load(TurtleLoader(), write(tmp_path, "other.ttl", relabelled)) == first


def test_turtle_indistinguishable_blank_nodes_get_distinct_ids(tmp_path: Path) -> None:
    path = write(tmp_path, "g.ttl", f"@prefix ex: <{EX}> .\nex:a ex:p [ ex:q 1 ], [ ex:q 1 ] .\n")
    records = load(TurtleLoader(), path)
    objects = {r.object.id for r in records if isinstance(r, TripleRecord) and r.predicate == "p"}
    assert len(objects) == 2
    assert records == load(TurtleLoader(), path)


def test_turtle_syntax_error_has_line(tmp_path: Path) -> None:
    content = f"@prefix ex: <{EX}> .\nex:a ex:p ex:b .\n\nex:c ex:p .\n"
    err = load_error(TurtleLoader(), write(tmp_path, "bad.ttl", content))
    assert_where(err, 4, None)
    assert "invalid Turtle" in str(err)


def test_turtle_non_utf8_has_line(tmp_path: Path) -> None:
    content = f"@prefix ex: <{EX}> .\nex:a ex:p ex:b .\n".encode() + b'ex:c ex:p "\xff" .\n'
    err = load_error(TurtleLoader(), write(tmp_path, "bad.ttl", content))
    assert_where(err, 3, None)


@pytest.mark.parametrize("fmt", FORMATS)
def test_missing_file_is_an_input_error(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "sub dir#1" / "missing.txt"
    err = load_error(get_loader(fmt), path)
    assert "cannot open" in str(err)


def test_turtle_path_with_space_and_hash(tmp_path: Path) -> None:
    folder = tmp_path / "my data #2"
    folder.mkdir()
    path = write(folder, "g.ttl", f"<{EX}a> <{EX}p> <{EX}b> .\n")
    assert load(TurtleLoader(), path) == [
        TripleRecord(EntityRecord(f"{EX}a"), "p", EntityRecord(f"{EX}b"), 0, f"{EX}p")
    ]


# -- naming ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("iri", "expected"),
    [
        (f"{EX}publicationYear", "publication year"),
        (f"{EX}has_author", "has author"),
        (f"{EX}hasAuthor", "has author"),
        (f"{EX}onto#hasDOI", "has DOI"),
        (f"{EX}HTTPServerName", "HTTP server name"),
        (f"{EX}research-field", "research field"),
        (f"{EX}has%20venue", "has venue"),
        (f"{EX}title/", "title"),
        ("urn:x:sameAs", "same as"),
        ("http://www.wikidata.org/prop/direct/P50", "P50"),
    ],
)
def test_humanize(iri: str, expected: str) -> None:
    assert humanize(iri) == expected


def test_local_name() -> None:
    assert local_name(f"{EX}onto#Paper") == "Paper"
    assert local_name(f"{EX}Paper") == "Paper"
    assert local_name("urn:isbn:123") == "123"


# -- registry -------------------------------------------------------------------------------


def test_registry_formats() -> None:
    assert FORMATS == ("orkg-json", "csv", "tsv", "psv", "nt", "ttl")
    assert set(LOADERS) == set(FORMATS)
    for fmt in FORMATS:
        assert get_loader(fmt).format_name == fmt
    assert get_loader("CSV").format_name == "csv"


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("g.json", "orkg-json"),
        ("g.csv", "csv"),
        ("g.tsv", "tsv"),
        ("g.tab", "tsv"),
        ("g.psv", "psv"),
        ("g.nt", "nt"),
        ("g.ttl", "ttl"),
        ("G.TURTLE", "ttl"),
        ("dir.v2/graph.JSON", "orkg-json"),
    ],
)
def test_detect_format(name: str, fmt: str) -> None:
    assert detect_format(Path(name)) == fmt


@pytest.mark.parametrize("name", ["graph.xml", "graph", "graph.xml.gz"])
def test_detect_format_rejects_unknown(name: str) -> None:
    with pytest.raises(UnsupportedFormatError) as info:
        detect_format(name)
    assert name in str(info.value)
    assert ".json" in str(info.value) and ".ttl" in str(info.value)


def test_metaqa_kb_txt_is_read_as_pipe_separated_triples(tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"  # MetaQA's knowledge base as it ships: nothing quoted, commas in names
    kb.write_text(
        'Kismet|directed_by|William Dieterle\n"Crocodile" Dundee|release_year|1986\nSay It, Mean It|has_genre|Drama\n'
    )
    assert detect_format(kb) == "psv"
    triples = [(r.subject.id, r.predicate, r.object.id) for r in load(get_loader("psv"), kb)]
    assert triples == [
        ("Kismet", "directed_by", "William Dieterle"),
        ('"Crocodile" Dundee', "release_year", "1986"),
        ("Say It, Mean It", "has_genre", "Drama"),
    ]
    bad = tmp_path / "bad.psv"
    bad.write_text("Kismet|directed_by|William Dieterle\nKismet|directed_by\n")
    error = load_error(get_loader("psv"), bad)
    assert error.line == 2 and "expected 3 cells" in str(error)


def test_a_txt_file_is_detected_by_its_first_line(tmp_path: Path) -> None:
    for fmt, line in [("tsv", "a\tb\tc, d"), ("psv", "a|b|c, d"), ("csv", "a,b,c")]:
        (tmp_path / f"{fmt}.txt").write_text(f"\n{line}\n")
        assert detect_format(tmp_path / f"{fmt}.txt") == fmt
    (tmp_path / "words.txt").write_text("just some words\n")
    with pytest.raises(UnsupportedFormatError) as info:
        detect_format(tmp_path / "words.txt")
    assert "words.txt" in str(info.value) and ".txt (tsv, psv or csv" in str(info.value)
    with pytest.raises(InputError) as missing:
        detect_format(tmp_path / "missing.txt")
    assert "cannot open" in str(missing.value)


def test_get_loader_rejects_unknown() -> None:
    with pytest.raises(UnsupportedFormatError) as info:
        get_loader("xml")
    message = str(info.value)
    assert "xml" in message and all(fmt in message for fmt in FORMATS)


@pytest.mark.parametrize(
    ("entity_id", "name"),
    [
        ("Silent Echo", "Silent Echo"),
        ("  Star Wars: Episode IV ", "Star Wars: Episode IV"),  # a colon in a name is no IRI
        ("http://example.org/film/Am%C3%A9lie_(2001)", "Amélie (2001)"),
        ("https://example.org/onto#directedBy", "directedBy"),
        ("http://example.org/person/Jean-Pierre_Jeunet/", "Jean-Pierre Jeunet"),
        ("urn:isbn:0451450523", "0451450523"),
        ("_:b12", ""),
        (synthetic_literal_id("1977"), ""),
    ],
)
def test_an_entity_without_a_stated_label_is_named_by_its_id(entity_id: str, name: str) -> None:
    assert name_from_id(entity_id) == name
