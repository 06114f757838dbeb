"""The bad-input table: one row per (front end, command, bad input, expected exit code, message
fragment). Each table is one front end; the HTTP API of `kgqa serve` will be one more table of the
same rows (`Row.via = "http"`, `code` its status code), run by its own runner in
test_bad_input_table.py. Placeholders: {dir} (the row's working directory), {db} (its copy of the
indexed base database)."""

from __future__ import annotations

from dataclasses import dataclass, field

HEADER = b"subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal\n"
ABSENT = HEADER + b"P1,venue,V2,,,,,false\nP2,venue,V2,,,,,false\n"  # triples the graph does not hold


@dataclass(frozen=True)
class Row:
    """One bad input and what must happen: exit code `code` and `fragment` in the output, nothing
    stored changed."""

    command: str  # the command (or endpoint) as a user names it
    what: str  # the bad input, in a few words
    args: tuple[str, ...]  # argv after `kgqa` (placeholders filled per row)
    code: int  # expected exit code
    fragment: str  # expected in stdout + stderr (case-insensitive)
    files: dict[str, bytes] = field(default_factory=dict)  # written into {dir} first
    env: dict[str, str] = field(default_factory=dict)
    via: str = "cli"  # cli: in-process CliRunner; process: a real subprocess; (http: the service)
    needs_pg: bool = False  # {pg} is the DSN of a Postgres holding the base index

    @property
    def id(self) -> str:
        return f"{self.command}: {self.what}"


def r(command: str, what: str, args: str | tuple[str, ...], code: int, fragment: str, **kw) -> Row:
    return Row(command, what, tuple(args.split()) if isinstance(args, str) else args, code, fragment, **kw)


CLI_ROWS: list[Row] = [
    # -- init / stats ------------------------------------------------------------------------------
    r("init", "database under a regular file", ("--db", "{dir}/graph.csv/x.kuzu", "init"), 4, "graph.csv"),
    r("stats", "no database there", ("--db", "{dir}/none.kuzu", "stats"), 4, "kgqa init"),
    r("graph describe", "no database there", ("--db", "{dir}/none.kuzu", "graph", "describe"), 4, "kgqa init"),
    # -- load ----------------------------------------------------------------------------------------
    r("load", "missing file", "load {dir}/missing.csv", 3, "cannot open"),
    r("load", "a directory", "load {dir}", 2, "is a directory"),
    r("load", "unknown extension", "load {dir}/x.xyz", 3, "cannot detect the input format", files={"x.xyz": b"a b c"}),
    r("load", "unknown --format", "load {dir}/graph.csv --format xml", 2, "invalid value"),
    r(
        "load",
        "NUL in an id (CSV)",
        "load {dir}/nul.csv",
        3,
        "line 2, field 'object id': control character '\\x00'",
        files={"nul.csv": b"subject,predicate,object\nA,p,B\x00C\n"},
    ),
    r(
        "load",
        "escape character in a label (CSV)",
        "load {dir}/esc.csv",
        3,
        "field 'subject label': control character",
        files={"esc.csv": HEADER + b"P1,venue,V1,Graph \x1b[31mQA,Paper,ICSA,Venue,false\n"},
    ),
    r(
        "load",
        "bell in a literal (N-Triples)",
        "load {dir}/bell.nt",
        3,
        "control character '\\x07'",
        files={"bell.nt": b'<http://ex.org/a> <http://ex.org/p> "x\\u0007y" .\n'},
    ),
    r(
        "load",
        "NUL in a predicate (ORKG JSON)",
        "load {dir}/nul.json",
        3,
        "field 'predicate'",
        files={
            "nul.json": b'[{"entity_subject": {"uid": "R1", "text": "a"}, "predicate": {"uid": "P1", "text": "p\\u0000q"},'
            b' "entity_object": {"uid": "R2", "text": "b"}}]'
        },
    ),
    r(
        "load",
        "control character in a type (Turtle)",
        "load {dir}/t.ttl",
        3,
        "control character",
        files={
            "t.ttl": b'@prefix ex: <http://ex.org/> .\nex:a a ex:T ; <http://www.w3.org/2000/01/rdf-schema#label> "l\\u0001" .\n'
        },
    ),
    r(
        "load",
        "truncated JSON",
        "load {dir}/cut.json",
        3,
        "line 1",
        files={"cut.json": b'[{"entity_subject": {"uid": "R1"'},
    ),
    r(
        "load",
        "missing cells (TSV)",
        "load {dir}/short.tsv",
        3,
        "line 2",
        files={"short.tsv": b"subject\tpredicate\tobject\nA\tp\n"},
    ),
    r("load", "binary data", "load {dir}/bin.csv", 3, "UTF-8", files={"bin.csv": bytes(range(128, 256)) * 4}),
    r("load", "empty file", "load {dir}/empty.nt", 3, "empty", files={"empty.nt": b""}),
    r(
        "load",
        "bad Turtle",
        "load {dir}/bad.ttl",
        3,
        "bad.ttl",
        files={"bad.ttl": b"@prefix ex <http://ex.org/> .\nex:a ex:b"},
    ),
    r("load", "Turtle cut short", "load {dir}/cut.ttl", 3, "cut short", files={"cut.ttl": b"@"}),
    r(
        "load",
        "unterminated literal",
        "load {dir}/open.nt",
        3,
        "line 1",
        files={"open.nt": b'<http://ex.org/a> <http://ex.org/p> "open .\n'},
    ),
    r(
        "load",
        "every one of two files bad",
        "load {dir}/empty.csv {dir}/missing.csv",
        3,
        "all 2 files failed",
        files={"empty.csv": b""},
    ),
    r(
        "load",
        "one of two files bad (graph already holds the good one)",
        "load {dir}/graph.csv {dir}/empty.csv",
        10,
        "1 of 2 files failed",
        files={"empty.csv": b""},
    ),
    # -- index build ---------------------------------------------------------------------------------
    r(
        "index build",
        "criterion matching no entity",
        "index build --hub-type NoSuchType",
        3,
        "no entity matches the hub-root criteria (--hub-type NoSuchType); the graph's top types by count: Paper (6)",
    ),
    r(
        "index build",
        "no-match criteria combined",
        "index build --hub-type Nope --min-out-degree 99 --criteria all",
        3,
        "--hub-type Nope and --min-out-degree 99",
    ),
    r(
        "index build",
        "other parameters than the stored index",
        "index build --max-path-length 1",
        2,
        "its 6 hubs, 15 paths and 75 vectors are removed",
    ),
    r(
        "index build",
        "criterion matching only entities without paths",
        "index build --hub-type Venue",
        3,
        "have no outgoing triple (so no path), criteria (--hub-type venue); the graph's top types",
    ),
    r(
        "index build",
        "criterion matching only objects of other types' triples",
        "index build --hub-type Venue",
        3,
        "those entities are only objects here: the types whose entities are subjects are",
    ),
    r("index build", "other start entities", "index build --start V1", 2, "differing: start_ids"),
    r("index build", "--rebuild off a terminal without --yes", "index build --rebuild", 2, "add --yes"),
    r(
        "index build",
        "--replace off a terminal without --yes",
        "index build --replace --max-path-length 1",
        2,
        "this removes 6 hubs",
    ),
    r(
        "index build",
        "label index --rebuild without --yes",
        "index build --retriever difar --rebuild",
        2,
        "this removes 15 embedded texts",
    ),
    r(
        "index build",
        "hubs per batch 0",
        "index build --hubs-per-batch 0",
        2,
        "hubs_per_batch must be an integer between 1",
    ),
    r("index build", "--workers 0", "index build --workers 0", 2, "must be at least 1 (got 0)"),
    r("index build", "--workers with the Kùzu store", "index build --workers 2", 2, "needs the pgvector store"),
    r(
        "index build",
        "path length over the limit",
        "index build --max-path-length 31",
        2,
        "max_path_length must be <= 30",
    ),
    r("index build", "depth over the limit", "index build --max-depth 101", 2, "max_indexing_depth"),
    r("index build", "out-degree 0", "index build --min-out-degree 0", 2, "min_out_degree"),
    r("index build", "unknown start entity", "index build --start NOPE", 6, "NOPE"),
    r("index build", "not a number", "index build --hubs-per-batch many", 2, "not a valid integer"),
    # -- index update / status / sync / drop -------------------------------------------------------
    r("index update", "batch size over the limit", "index update --hubs-per-batch 100000", 2, "between 1 and 10,000"),
    r("index update", "another embedding model", "index update", 5, "--rebuild", env={"KGQA_EMBEDDING_MODEL": "other"}),
    r("index update", "no index", ("--db", "{dir}/fresh.kuzu", "index", "update"), 4, "kgqa init"),
    r("index status", "no database there", ("--db", "{dir}/none.kuzu", "index", "status"), 4, "kgqa init"),
    r("index sync", "same store twice", "index sync --to kuzu --from kuzu", 2, "different stores"),
    r(
        "index sync",
        "unreachable Postgres",
        "index sync --to pgvector --pg-dsn postgresql:///nodb?host=/nonexistent",
        4,
        "postgres",
    ),
    r("index drop", "off a terminal without --yes", "index drop", 2, "this removes 6 hubs"),
    r("index drop", "bad --store", "index drop --store mongo", 2, "invalid value"),
    # -- model / serve -------------------------------------------------------------------------------
    r(
        "model status",
        "unknown embedder backend",
        "model status",
        2,
        "unknown embedder backend 'bogus'",
        env={"KGQA_EMBEDDER": "bogus"},
    ),
    r("model status", "unknown option", "model status --bogus", 2, "No such option"),
    r("model export", "unknown option", "model export --int4", 2, "No such option"),
    r(
        "model export",
        "unknown embedder backend",
        "model export",
        2,
        "unknown embedder backend 'bogus'",
        env={"KGQA_EMBEDDER": "bogus"},
    ),
    r("serve", "no database there", ("--db", "{dir}/none.kuzu", "serve", "--port", "0"), 4, "kgqa init"),
    r("serve", "--workers 0", "serve --workers 0 --port 0", 2, "--workers"),
    r("serve", "negative --queue", "serve --queue -1 --port 0", 2, "--queue"),
    # -- triples -------------------------------------------------------------------------------------
    r(
        "triples add",
        "NUL in the subject",
        ("triples", "add", "-s", "B\x00C", "-p", "venue", "-o", "V1"),
        3,
        "field 'subject': control character '\\x00'",
    ),
    r(
        "triples add",
        "escape in a label",
        ("triples", "add", "-s", "P1", "-p", "venue", "-o", "V1", "--subject-label", "a\x1bb"),
        3,
        "subject label",
    ),
    r(
        "triples add",
        "vertical tab in a literal",
        ("triples", "add", "-s", "P1", "-p", "note", "-o", "a\x0bb", "--literal"),
        3,
        "control character '\\x0b'",
    ),
    r(
        "triples add",
        "file with NUL",
        "triples add {dir}/nul.csv",
        3,
        "nul.csv, line 2",
        files={"nul.csv": b"subject,predicate,object\nP1,venue,V\x009\n"},
    ),
    r("triples add", "missing --object", "triples add -s P1 -p venue", 3, "missing --object"),
    r(
        "triples add",
        "empty type",
        ("triples", "add", "-s", "P1", "-p", "venue", "-o", "V1", "--subject-type", " "),
        3,
        "empty subject type",
    ),
    r(
        "triples delete",
        "no triple of the file in the graph",
        "triples delete {dir}/absent.csv",
        3,
        "all 2 triples to delete failed",
        files={"absent.csv": ABSENT},
    ),
    r("triples delete", "unknown entity", "triples delete -s P1 -p venue -o NOPE", 6, "NOPE"),
    r(
        "triples delete",
        "invalid IRI",
        ("triples", "delete", "-s", "<a b>", "-p", "venue", "-o", "V1"),
        3,
        "invalid IRI",
    ),
    # -- ask -------------------------------------------------------------------------------------------
    r("ask", "--hubs 100000000", ("ask", "x", "--hubs", "100000000"), 2, "between 1 and 1,000, got 100000000"),
    r("ask", "--paths-per-hub 1001", ("ask", "x", "--paths-per-hub", "1001"), 2, "paths_per_hub"),
    r(
        "ask",
        "top_n over 10,000",
        ("ask", "x", "--retriever", "difar", "--param", "top_n=10001"),
        2,
        "top_n must be an integer between 1 and 10,000",
    ),
    r("ask", "k not an integer", ("ask", "x", "--retriever", "simgrag", "--param", "k=1.5"), 2, "k must be an integer"),
    r("ask", "diversity penalty 2", ("ask", "x", "--diversity-penalty", "2"), 2, "diversity_penalty"),
    r("ask", "max level 11", ("ask", "x", "--max-level", "11"), 2, "max_retrieval_level"),
    r("ask", "negative alpha", ("ask", "x", "--alpha", "-1"), 2, "path_weight_alpha"),
    r("ask", "token budget 0", ("ask", "x", "--token-budget", "0"), 2, "token budget"),
    r("ask", "empty question", ("ask", "   "), 3, "empty"),
    r(
        "ask",
        "NUL in the question",
        ("ask", "Which\x00 papers?"),
        3,
        "control character '\\x00' is not allowed in the question",
    ),
    r("ask", "unknown retriever parameter", ("ask", "x", "--param", "nope=1"), 2, "unknown retriever parameter 'nope'"),
    r("ask", "unknown topic entity", ("ask", "Which papers?", "--topic-entity", "NOPE"), 6, "NOPE"),
    r("ask", "retriever without its index", ("ask", "Which papers?", "--retriever", "simgrag"), 5, "no simgrag index"),
    r("ask", "question timeout 0", ("ask", "x"), 2, "KGQA_QUESTION_TIMEOUT", env={"KGQA_QUESTION_TIMEOUT": "0"}),
    r(
        "ask",
        "question timeout not a number",
        ("ask", "x"),
        2,
        "KGQA_QUESTION_TIMEOUT must be a number",
        env={"KGQA_QUESTION_TIMEOUT": "soon"},
    ),
    r(
        "ask",
        "question past its time budget",
        ("ask", "Which papers were published at ICSA?", "--topic-entity", "V1"),
        9,
        "time budget of 1e-06 s",
        env={"KGQA_QUESTION_TIMEOUT": "0.000001"},
    ),
    r("ask", "no index", ("--db", "{dir}/graph.csv.kuzu", "ask", "x"), 4, "kgqa init"),
    # -- eval --------------------------------------------------------------------------------------
    r("eval", "retriever without its index", "eval {dir}/questions.csv --retriever coe", 5, "no coe index"),
    r("eval", "missing questions file", "eval {dir}/nope.csv", 3, "nope.csv"),
    r(
        "eval",
        "every question past its time budget",
        "eval {dir}/questions.csv --out {dir}/run.jsonl",
        10,
        "2 of 2 questions failed",
        env={"KGQA_QUESTION_TIMEOUT": "0.000001"},
    ),
    r(
        "eval",
        "every topic entity unknown",
        "eval {dir}/bad_topics.csv --out {dir}/run.jsonl --keep-going",
        10,
        "2 of 2 questions failed",
        files={
            "bad_topics.csv": b"uid,question,topic_entity_id,golden_triples\n"
            b"q1,Which papers?,NOPE1,[]\nq2,Which venues?,NOPE2,[]\n"
        },
    ),
    r("eval", "negative --limit", "eval {dir}/questions.csv --limit -1", 2, "--limit"),
    r("eval", "--hubs over the limit", "eval {dir}/questions.csv --hubs 5000", 2, "between 1 and 1,000"),
    r("eval report", "missing run file", "eval report {dir}/nope.jsonl {dir}/questions.csv", 3, "nope.jsonl"),
    # -- pg ----------------------------------------------------------------------------------------------
    r("pg status", "server not running", "pg status", 3, "not running"),
    r(
        "pg start",
        "data directory under a regular file",
        ("--db", "{dir}/graph.csv/x.kuzu", "pg", "start"),
        4,
        "cannot start the local Postgres",
    ),
    r("pg stop", "bad --json value", "pg stop --json=yes", 2, "does not take a value"),
    # -- sql (DuckDB) and cypher -----------------------------------------------------------------------
    r("sql", "k = 0", ("sql", "-c", "SELECT * FROM kgqa_retrieve('Which papers?', 0)"), 3, "k must be an integer"),
    r("sql", "syntax error", ("sql", "-c", "SELEC 1"), 3, "SQL error"),
    r("sql", "empty question", ("sql", "-c", "SELECT * FROM kgqa_ask('  ')"), 3, "empty"),
    r("sql", "--hubs over the limit", ("sql", "--hubs", "5000", "-c", "SELECT 1"), 2, "between 1 and 1,000"),
    r(
        "sql",
        "question past its time budget",
        ("sql", "-c", "SELECT * FROM kgqa_ask('Which papers were published at ICSA?')"),
        9,
        "time budget",
        env={"KGQA_QUESTION_TIMEOUT": "0.000001"},
    ),
    r(
        "cypher",
        "question past its time budget",
        ("cypher", "-c", "RETURN kgqa_answer('Which papers were published at ICSA?')"),
        9,
        "time budget",
        env={"KGQA_QUESTION_TIMEOUT": "0.000001"},
    ),
    r(
        "sql install",
        "unreachable Postgres",
        "sql install --pg-dsn postgresql:///nodb?host=/nonexistent",
        4,
        "postgres",
    ),
    r("cypher", "unknown function", ("cypher", "-c", "RETURN no_such_function(1)"), 3, "Cypher error"),
    r("cypher", "empty question", ("cypher", "-c", "RETURN kgqa_answer('   ')"), 3, "the question is empty"),
    r("cypher", "k = -1", ("cypher", "-c", "RETURN kgqa_retrieve_triples('Which papers?', -1)"), 3, "k must be"),
    r("cypher", "a write", ("cypher", "-c", "MATCH (e:Entity) DETACH DELETE e"), 3, "read-only"),
    # -- build-kg, bench, demo ---------------------------------------------------------------------
    r("build-kg", "missing text file", "build-kg {dir}/nope.txt", 3, "nope.txt"),
    r(
        "build-kg",
        "NUL in a text file",
        "build-kg {dir}/nul.txt",
        3,
        "nul.txt, line 2: control character '\\x00'",
        files={"nul.txt": b"ICSA 2019 had many papers.\nGraph QA at Scale was \x00published there.\n"},
    ),
    r("build-kg", "binary text file", "build-kg {dir}/bin.txt", 3, "UTF-8", files={"bin.txt": bytes(range(128, 256))}),
    r("bench generate", "too few triples", "bench generate --triples 5 --out {dir}/syn", 2, "100"),
    r("bench generate", "not a number", "bench generate --triples lots", 2, "not a number"),
    r(
        "bench generate",
        "negative question count",
        "bench generate --triples 1000 --questions -1 --out {dir}/syn",
        2,
        "questions",
    ),
    r("demo", "a database that holds another graph", ("demo", "--db", "{db}"), 2, "holds another graph"),
]

#: A few rows as real processes (the console entry point, exit status as the shell sees it).
PROCESS_ROWS: list[Row] = [
    r(
        "load",
        "NUL in an id (process)",
        "load {dir}/nul.csv",
        3,
        "control character",
        files={"nul.csv": b"subject,predicate,object\nA,p,B\x00C\n"},
        via="process",
    ),
    r(
        "index build",
        "criterion matching no entity (process)",
        "index build --hub-type NoSuchType",
        3,
        "top types by count",
        via="process",
    ),
    r("index build", "other parameters (process)", "index build --min-out-degree 3", 2, "--rebuild", via="process"),
    r("pg status", "server not running (process)", "pg status", 3, "not running", via="process"),
    r(
        "ask",
        "--hubs 100000000 (process)",
        ("ask", "x", "--hubs", "100000000"),
        2,
        "between 1 and 1,000",
        via="process",
    ),
]

#: Rows against a Postgres that holds the index `other` of another graph (pgvector store, SQL layer installed).
PG_CLI_ROWS: list[Row] = [
    r(
        "index sync",
        "would replace another graph's index (same --index), no --yes",
        "index sync --to pgvector --index other --pg-dsn {pg}",
        2,
        "the sync removes 2 hubs",
        needs_pg=True,
    ),
    r(
        "index sync",
        "an invalid index name",
        "index sync --to pgvector --index Bad-Name --pg-dsn {pg}",
        2,
        "invalid index name 'Bad-Name'",
        needs_pg=True,
    ),
    r(
        "index list",
        "pgvector: an invalid DSN",
        ("index", "list", "--store", "pgvector", "--pg-dsn", "not a dsn"),
        2,
        "invalid Postgres DSN",
        needs_pg=True,
    ),
    r(
        "index drop",
        "pgvector: no index of that name",
        "index drop nosuch --store pgvector --yes --pg-dsn {pg}",
        5,
        "no index named 'nosuch' in Postgres (indexes: other)",
        needs_pg=True,
    ),
    r("index drop", "NAME with the Kùzu store", "index drop other --yes", 2, "pgvector store only"),
    r(
        "index sync",
        "--rebuild without --yes",
        "index sync --to pgvector --rebuild --index other --pg-dsn {pg}",
        2,
        "add --yes",
        needs_pg=True,
    ),
    r(
        "index drop",
        "pgvector, no --yes",
        "index drop --store pgvector --index other --pg-dsn {pg}",
        2,
        "from the pgvector store",
        needs_pg=True,
    ),
    r(
        "index build",
        "pgvector, other parameters",
        "index build --store pgvector --index other --pg-dsn {pg} --max-path-length 1",
        2,
        "--rebuild",
        needs_pg=True,
    ),
    r(
        "ask",
        "pgvector, --hubs 5000",
        "ask x --hubs 5000 --store pgvector --pg-dsn {pg}",
        2,
        "between 1 and 1,000",
        needs_pg=True,
    ),
    r(
        "index worker",
        "no shared build waits for workers",
        "index worker --index nosuch --pg-dsn {pg}",
        3,
        "no index build of index 'nosuch' waits for workers",
        needs_pg=True,
    ),
    r(
        "index build",
        "pgvector, other parameters, --workers",
        "index build --store pgvector --index other --pg-dsn {pg} --max-path-length 1 --workers 2",
        2,
        "--rebuild",
        needs_pg=True,
    ),
]

#: The SQL functions of the Postgres layer (`kgqa sql install`): (call, SQLSTATE, message fragment).
#: {v} is one stored embedding.
SQL_ROWS: list[tuple[str, str, str]] = [
    ("kgqa_other.rank_hubs(ARRAY[{v}], 1001)", "22023", "hubs_to_keep must be an integer between 1 and 1000"),
    ("kgqa_other.rank_hubs(ARRAY[{v}], NULL)", "22023", "hubs_to_keep must be an integer between 1 and 1000, got NULL"),
    ("kgqa_other.rank_triples(ARRAY[{v}], 5, 0)", "22023", "paths_per_hub must be an integer between 1 and 1000"),
    ("kgqa_other.rank_triples(ARRAY[{v}], 5, 1001)", "22023", "paths_per_hub"),
    ("kgqa_other.rank_hubs(NULL::vector[])", "22023", "queries must be a non-empty vector[]"),
    ("kgqa_other.rank_hubs(ARRAY[{v}], 5, 10, NULL)", "22023", "diversity_penalty"),
    ("kgqa_other.nearest_texts(NULL::vector, 5)", "22004", "query must be a vector, got NULL"),
    ("kgqa_other.nearest_texts({v}, 1001)", "22023", "k must be an integer within [1, 1000]"),
]

# -- the HTTP API of `kgqa serve` (test_http_rows.py) ---------------------------------------------------
#: args: (METHOD, URL, BODY). The URL starts with the service's placeholder: {main} (token required, one
#: worker, no queue), {slow} (KGQA_QUESTION_TIMEOUT tiny, no token) or {noindex} (a graph without an index).
#: BODY is JSON text sent as it is ("" for none; lone surrogates stand for invalid UTF-8 bytes). For HTTP
#: rows `env` holds request headers: the runner sends {main}'s token unless the row sets Authorization
#: ("" for none). METHOD "BURST POST": 8 copies at once, so the one worker is busy and the queue full.
Q = "Which papers were published at ICSA?"


def h(
    endpoint: str,
    what: str,
    url: str,
    body: str | dict | None,
    code: int,
    fragment: str,
    headers: dict[str, str] | None = None,
    method: str | None = None,
) -> Row:
    """One HTTP row; `endpoint` is "METHOD /path" as the docs name it, a dict body is sent as JSON."""
    import json

    text = "" if body is None else body if isinstance(body, str) else json.dumps(body)
    verb = method or endpoint.split()[0]
    return Row(endpoint, what, (verb, url, text), code, fragment, env=dict(headers or {}), via="http")


def _ask_rows(path: str) -> list[Row]:
    """The rows that hold for both question endpoints (/v1/ask and /v1/retrieve)."""
    ep, url = f"POST {path}", "{main}" + path
    return [
        h(ep, "malformed JSON", url, "{not json", 422, "JSON decode error"),
        h(ep, "no body", url, None, 422, "field 'body'"),
        h(ep, "missing question", url, {"hubs": 3}, 422, "field 'question': Field required"),
        h(ep, "question a number", url, {"question": 42}, 422, "field 'question'"),
        h(
            ep,
            "hubs 1001",
            url,
            {"question": Q, "hubs": 1001},
            422,
            "field 'hubs': Input should be less than or equal to 1000",
        ),
        h(ep, "unknown retriever", url, {"question": Q, "retriever": "nope"}, 422, "field 'retriever'"),
        h(
            ep,
            "NUL in the question",
            url,
            {"question": "Which\x00 papers?"},
            422,
            "control character '\\x00' is not allowed in the question",
        ),
        h(
            ep,
            "unknown topic entity",
            url,
            {"question": Q, "topic_entity": "NOPE"},
            404,
            "no entity with id or label 'NOPE'",
        ),
        h(ep, "retriever without its index", url, {"question": Q, "retriever": "simgrag"}, 409, "no simgrag index"),
        h(ep, "no token", url, {"question": Q}, 401, "Bearer", headers={"Authorization": ""}),
        h(ep, "no index", "{noindex}" + path, {"question": Q}, 409, "kgqa index build"),
        h(
            ep,
            "question past its time budget",
            "{slow}" + path,
            {"question": Q, "topic_entity": "V1"},
            504,
            "time budget",
        ),
        h(
            ep,
            "queue full",
            url,
            {"question": Q, "strategy": "direct", "hubs": 1000, "paths_per_hub": 1000},
            503,
            "Retry-After: 1",
            method="BURST POST",
        ),
    ]


HTTP_ROWS: list[Row] = (
    _ask_rows("/v1/ask")
    + _ask_rows("/v1/retrieve")
    + [
        # -- POST /v1/ask: the rest of the fields and their bounds (kgqa/config.py, docs/reliability.md#limits)
        h(
            "POST /v1/ask",
            "invalid UTF-8",
            "{main}/v1/ask",
            '{"question": "\udcff\udcfe"}',
            422,
            "not valid UTF-8 JSON",
        ),
        h("POST /v1/ask", "a JSON array", "{main}/v1/ask", "[1, 2]", 422, "valid dictionary"),
        h(
            "POST /v1/ask",
            "nesting 100,000 deep",
            "{main}/v1/ask",
            '{"question": "x", "params": ' + "[" * 100_000 + "]" * 100_000 + "}",
            422,
            "field",
        ),
        h(
            "POST /v1/ask",
            "hubs as a string",
            "{main}/v1/ask",
            {"question": Q, "hubs": "3"},
            422,
            "field 'hubs': Input should be a valid integer",
        ),
        h("POST /v1/ask", "hubs true", "{main}/v1/ask", {"question": Q, "hubs": True}, 422, "field 'hubs'"),
        h("POST /v1/ask", "hubs 0", "{main}/v1/ask", {"question": Q, "hubs": 0}, 422, "greater than or equal to 1"),
        h(
            "POST /v1/ask",
            "paths_per_hub 1001",
            "{main}/v1/ask",
            {"question": Q, "paths_per_hub": 1001},
            422,
            "field 'paths_per_hub'",
        ),
        h("POST /v1/ask", "max_level 11", "{main}/v1/ask", {"question": Q, "max_level": 11}, 422, "field 'max_level'"),
        h(
            "POST /v1/ask",
            "diversity_penalty 2",
            "{main}/v1/ask",
            {"question": Q, "diversity_penalty": 2},
            422,
            "field 'diversity_penalty'",
        ),
        h("POST /v1/ask", "alpha -1", "{main}/v1/ask", {"question": Q, "alpha": -1}, 422, "field 'alpha'"),
        h("POST /v1/ask", "alpha NaN", "{main}/v1/ask", '{"question": "x", "alpha": NaN}', 422, "field 'alpha'"),
        h(
            "POST /v1/ask",
            "token_budget 0",
            "{main}/v1/ask",
            {"question": Q, "token_budget": 0},
            422,
            "field 'token_budget'",
        ),
        h(
            "POST /v1/ask",
            "token_budget over 10^8",
            "{main}/v1/ask",
            {"question": Q, "token_budget": 10**12},
            422,
            "field 'token_budget'",
        ),
        h(
            "POST /v1/ask",
            "DiFaR top_n 10001",
            "{main}/v1/ask",
            {"question": Q, "retriever": "difar", "params": {"top_n": 10001}},
            422,
            "top_n must be an integer between 1 and 10,000",
        ),
        h(
            "POST /v1/ask",
            "top_n not a number",
            "{main}/v1/ask",
            {"question": Q, "retriever": "difar", "params": {"top_n": "many"}},
            422,
            "top_n must be",
        ),
        h(
            "POST /v1/ask",
            "SimGRAG k 1.5",
            "{main}/v1/ask",
            {"question": Q, "retriever": "simgrag", "params": {"k": 1.5}},
            422,
            "k must be an integer",
        ),
        h(
            "POST /v1/ask",
            "unknown retriever parameter",
            "{main}/v1/ask",
            {"question": Q, "params": {"nope": 1}},
            422,
            "unknown retriever parameter 'nope'",
        ),
        h("POST /v1/ask", "unknown field", "{main}/v1/ask", {"question": Q, "hubz": 3}, 422, "field 'hubz'"),
        h(
            "POST /v1/ask",
            "unknown strategy",
            "{main}/v1/ask",
            {"question": Q, "strategy": "sideways"},
            422,
            "field 'strategy'",
        ),
        h(
            "POST /v1/ask",
            "unknown scoring",
            "{main}/v1/ask",
            {"question": Q, "scoring": "best"},
            422,
            "field 'scoring'",
        ),
        h("POST /v1/ask", "unknown LLM", "{main}/v1/ask", {"question": Q, "llm": "gpt"}, 422, "field 'llm'"),
        h(
            "POST /v1/ask",
            "components not a boolean",
            "{main}/v1/ask",
            {"question": Q, "components": "no"},
            422,
            "field 'components'",
        ),
        h("POST /v1/ask", "empty question", "{main}/v1/ask", {"question": "   "}, 422, "the question is empty"),
        h(
            "POST /v1/ask",
            "question of 4,001 characters",
            "{main}/v1/ask",
            {"question": "x" * 4001},
            422,
            "at most 4000 characters",
        ),
        h(
            "POST /v1/ask",
            "question of 2 MB",
            "{main}/v1/ask",
            {"question": "x" * 2_000_000},
            422,
            "at most 4000 characters",
        ),
        h(
            "POST /v1/ask",
            "escape character in the question",
            "{main}/v1/ask",
            {"question": "Which \x1b[31mpapers?"},
            422,
            "control character '\\x1b'",
        ),
        h(
            "POST /v1/ask",
            "empty topic entity",
            "{main}/v1/ask",
            {"question": Q, "topic_entity": ""},
            422,
            "field 'topic_entity'",
        ),
        h(
            "POST /v1/ask",
            "wrong token",
            "{main}/v1/ask",
            {"question": Q},
            401,
            "Bearer",
            headers={"Authorization": "Bearer wrong"},
        ),
        h(
            "POST /v1/ask",
            "Basic instead of Bearer",
            "{main}/v1/ask",
            {"question": Q},
            401,
            "Bearer",
            headers={"Authorization": "Basic dXNlcjpwYXNz"},
        ),
        h("GET /v1/ask", "wrong method", "{main}/v1/ask", None, 405, "Method Not Allowed"),
        # -- the other endpoints ---------------------------------------------------------------------------------
        h("GET /v1/stats", "no token", "{main}/v1/stats", None, 401, "Bearer", headers={"Authorization": ""}),
        h(
            "GET /v1/stats",
            "wrong token",
            "{main}/v1/stats",
            None,
            401,
            "Bearer",
            headers={"Authorization": "Bearer x"},
        ),
        h("POST /v1/stats", "wrong method", "{main}/v1/stats", "{}", 405, "Method Not Allowed"),
        h("POST /v1/health", "wrong method", "{main}/v1/health", "{}", 405, "Method Not Allowed"),
        h("DELETE /v1/health", "wrong method", "{main}/v1/health", None, 405, "Method Not Allowed"),
        h("POST /openapi.json", "wrong method", "{main}/openapi.json", "{}", 405, "Method Not Allowed"),
        h("GET /v1/nope", "unknown path", "{main}/v1/nope", None, 404, "the endpoints are"),
        h("POST /v1/ready", "wrong method", "{main}/v1/ready", "{}", 405, "Method Not Allowed"),
        h("POST /v1/live", "wrong method", "{main}/v1/live", "{}", 405, "Method Not Allowed"),
        # -- writes through the service (issue 29): refused before anything is written ------------------------
        h(
            "POST /v1/triples",
            "no token",
            "{main}/v1/triples",
            {"add": []},
            401,
            "Bearer",
            headers={"Authorization": ""},
        ),
        h("POST /v1/triples", "nothing to do", "{main}/v1/triples", {"add": [], "delete": []}, 422, "at least one"),
        h(
            "POST /v1/triples",
            "item without object",
            "{main}/v1/triples",
            {"add": [{"subject": "P1", "predicate": "author"}]},
            422,
            "add.0.object",
        ),
        h(
            "POST /v1/triples",
            "unknown item field",
            "{main}/v1/triples",
            {"add": [{"subject": "P1", "predicate": "p", "object": "o", "colour": "red"}]},
            422,
            "add.0.colour",
        ),
        h(
            "POST /v1/triples",
            "types not a list",
            "{main}/v1/triples",
            {"add": [{"subject": "P1", "predicate": "p", "object": "o", "subject_types": "Paper"}]},
            422,
            "subject_types",
        ),
        h(
            "POST /v1/triples",
            "control character in a predicate",
            "{main}/v1/triples",
            {"add": [{"subject": "P1", "predicate": "p\u0007", "object": "o"}]},
            422,
            "predicate",
        ),
        h(
            "POST /v1/triples",
            "delete with an unknown entity",
            "{main}/v1/triples",
            {"delete": [{"subject": "NoSuchEntity", "predicate": "p", "object": "o"}]},
            404,
            "NoSuchEntity",
        ),
        h("GET /v1/triples", "wrong method", "{main}/v1/triples", None, 405, "Method Not Allowed"),
        h("POST /v1/index/update", "dirty not a boolean", "{main}/v1/index/update", {"dirty": "yes"}, 422, "dirty"),
        h("POST /v1/index/update", "no index", "{noindex}/v1/index/update", {"dirty": True}, 409, "index"),
        # -- the web page's endpoints (issue 19) ---------------------------------------------------------------
        h(
            "GET /v1/entities/{entity_id}",
            "unknown entity",
            "{main}/v1/entities/NoSuchEntity",
            None,
            404,
            "no entity with id 'NoSuchEntity'",
        ),
        h("GET /v1/entities/{entity_id}", "limit 0", "{main}/v1/entities/P1?limit=0", None, 422, "limit"),
        h(
            "GET /v1/entities/{entity_id}",
            "limit over the bound",
            "{main}/v1/entities/P1?limit=100000",
            None,
            422,
            "limit",
        ),
        h(
            "GET /v1/entities/{entity_id}",
            "no token",
            "{main}/v1/entities/P1",
            None,
            401,
            "Bearer",
            headers={"Authorization": ""},
        ),
        h("GET /v1/entities", "no q", "{main}/v1/entities", None, 422, "q"),
        h("GET /v1/entities", "q of 201 characters", "{main}/v1/entities?q=" + "x" * 201, None, 422, "q"),
        h("GET /v1/entities", "limit not a number", "{main}/v1/entities?q=a&limit=many", None, 422, "limit"),
        h(
            "POST /v1/evidence",
            "triples not a list",
            "{main}/v1/evidence",
            {"triples": "a, b, c"},
            422,
            "field 'triples'",
        ),
        h("POST /v1/evidence", "missing triples", "{main}/v1/evidence", {}, 422, "field 'triples'"),
        h("GET /v1/evidence", "wrong method", "{main}/v1/evidence", None, 405, "Method Not Allowed"),
        # -- the explore endpoints (issue 31) ------------------------------------------------------------------
        h(
            "GET /v1/entities/{entity_id}/neighbours",
            "unknown entity",
            "{main}/v1/entities/NoSuchEntity/neighbours",
            None,
            404,
            "no entity with id 'NoSuchEntity'",
        ),
        h(
            "GET /v1/entities/{entity_id}/neighbours",
            "unknown direction",
            "{main}/v1/entities/P1/neighbours?direction=up",
            None,
            422,
            "field 'direction'",
        ),
        h(
            "GET /v1/entities/{entity_id}/neighbours",
            "limit over the page bound",
            "{main}/v1/entities/P1/neighbours?limit=201",
            None,
            422,
            "field 'limit'",
        ),
        h(
            "GET /v1/entities/{entity_id}/neighbours",
            "negative offset",
            "{main}/v1/entities/P1/neighbours?offset=-1",
            None,
            422,
            "field 'offset'",
        ),
        h(
            "GET /v1/entities/{entity_id}/neighbours",
            "no token",
            "{main}/v1/entities/P1/neighbours",
            None,
            401,
            "Bearer",
            headers={"Authorization": ""},
        ),
        h("GET /v1/search", "neither q nor type", "{main}/v1/search", None, 422, "give a text to search for or a type"),
        h("GET /v1/search", "q of 201 characters", "{main}/v1/search?q=" + "x" * 201, None, 422, "field 'q'"),
        h("GET /v1/search", "limit 0", "{main}/v1/search?q=ICSA&limit=0", None, 422, "field 'limit'"),
        h("GET /v1/paths", "no source", "{main}/v1/paths?target=V1", None, 422, "field 'source'"),
        h(
            "GET /v1/paths",
            "unknown target",
            "{main}/v1/paths?source=P1&target=NoSuchEntity",
            None,
            404,
            "no entity with id 'NoSuchEntity' (target)",
        ),
        h(
            "GET /v1/paths",
            "max_depth over the bound",
            "{main}/v1/paths?source=P1&target=V1&max_depth=7",
            None,
            422,
            "field 'max_depth'",
        ),
        h(
            "GET /v1/paths",
            "max_paths not a number",
            "{main}/v1/paths?source=P1&target=V1&max_paths=all",
            None,
            422,
            "field 'max_paths'",
        ),
        h("GET /v1/schema", "limit 0", "{main}/v1/schema?limit=0", None, 422, "field 'limit'"),
        h("GET /v1/schema", "limit over the bound", "{main}/v1/schema?limit=501", None, 422, "field 'limit'"),
        h("GET /v1/schema", "no token", "{main}/v1/schema", None, 401, "Bearer", headers={"Authorization": ""}),
        h("POST /v1/schema", "wrong method", "{main}/v1/schema", "{}", 405, "Method Not Allowed"),
        h("GET /v1/schema/triples", "no predicate", "{main}/v1/schema/triples", None, 422, "field 'predicate'"),
        h(
            "GET /v1/schema/triples",
            "empty predicate",
            "{main}/v1/schema/triples?predicate=",
            None,
            422,
            "field 'predicate'",
        ),
        h(
            "GET /v1/schema/triples",
            "limit over the page bound",
            "{main}/v1/schema/triples?predicate=venue&limit=201",
            None,
            422,
            "field 'limit'",
        ),
    ]
)
