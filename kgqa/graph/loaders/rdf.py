"""Loaders for RDF: N-Triples (own streaming line parser) and Turtle (parsed by rdflib).

Both map RDF onto HubLink records the same way:

- `rdf:type` with an IRI object -> EntityOnlyRecord stating the type's local name;
- `rdfs:label` / `skos:prefLabel` with a literal object -> EntityOnlyRecord stating the label;
- every other triple -> TripleRecord; `predicate` is the predicate IRI's humanized local name
  (`hasAuthor` -> `has author`), `predicate_id` the full IRI.

IRI entities have the full IRI as id (no label unless one is stated). Literal objects get
`id = synthetic_literal_id(value, datatype or "@lang")` (xsd:string counts as no datatype,
language tags are lower-cased), `label = value` and `is_literal = True`.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from kgqa.errors import InputError
from kgqa.graph.loaders.base import EntityOnlyRecord, EntityRecord, Record, TripleRecord
from kgqa.graph.loaders.delimited import open_binary, utf8_lines
from kgqa.types import local_name, synthetic_literal_id

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
LABEL_PREDICATES = frozenset(
    {
        "http://www.w3.org/2000/01/rdf-schema#label",
        "http://www.w3.org/2004/02/skos/core#prefLabel",
    }
)


@dataclass(frozen=True, slots=True)
class Term:
    """An RDF term: kind is "iri", "bnode" (value = `_:label`) or "literal"."""

    kind: str
    value: str
    datatype: str = ""
    lang: str = ""

    def sort_key(self) -> tuple[str, str, str, str]:
        """A total order over terms (used to emit Turtle records deterministically)."""
        return (self.kind, self.value, self.datatype, self.lang)


# -- mapping ----------------------------------------------------------------------------------


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def humanize(iri: str) -> str:
    """A predicate label from an IRI: `publicationYear`/`has_author` -> `publication year`/`has author`.

    Words are split at `_`, `-`, spaces and camelCase humps and lower-cased; acronyms
    (all-capital words of two or more characters, e.g. `DOI`) keep their case.
    """
    name = unquote(local_name(iri))
    words = _CAMEL.sub(" ", name).replace("_", " ").replace("-", " ").split()
    text = " ".join(w if len(w) > 1 and w.isupper() else w.lower() for w in words)
    return text or name


def _entity(term: Term) -> EntityRecord:
    if term.kind != "literal":
        return EntityRecord(term.value)
    datatype = "" if term.datatype == XSD_STRING else term.datatype
    tag = f"@{term.lang.lower()}" if term.lang else datatype
    return EntityRecord(synthetic_literal_id(term.value, tag), term.value, is_literal=True)


def to_record(subject: Term, predicate: Term, obj: Term, line: int) -> Record:
    """The HubLink record of one RDF statement (see the module docstring)."""
    if predicate.value == RDF_TYPE and obj.kind == "iri":
        return EntityOnlyRecord(EntityRecord(subject.value, types=(local_name(obj.value),)), line)
    if predicate.value in LABEL_PREDICATES and obj.kind == "literal":
        return EntityOnlyRecord(EntityRecord(subject.value, label=obj.value), line)
    return TripleRecord(_entity(subject), humanize(predicate.value), _entity(obj), line, predicate.value)


# -- N-Triples ----------------------------------------------------------------------------------

_IRI_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_IRI_BAD = re.compile(r'[\x00-\x20<>"{}|^`\\\x7f]')
_BNODE = re.compile(r"_:([\w](?:[\w.\-\u00b7]*[\w\-\u00b7])?)")
_LANG = re.compile(r"@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*)")
_STRING_STOP = re.compile(r'["\\]')
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


class _LineParser:
    """Parses one N-Triples line; errors name the file, line and term position."""

    def __init__(self, text: str, source: str, line: int) -> None:
        self.text = text
        self.source = source
        self.line = line
        self.i = 0

    def fail(self, message: str, field: str | None = None) -> InputError:
        return InputError(message, source=self.source, line=self.line, field=field)

    def skip_ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t":
            self.i += 1

    def at_end(self) -> bool:
        return self.i >= len(self.text) or self.text[self.i] == "#"

    def parse(self) -> tuple[Term, Term, Term] | None:
        self.skip_ws()
        if self.at_end():
            return None
        subject = self.bnode("subject") if self.text.startswith("_:", self.i) else self.iri("subject")
        self.skip_ws()
        predicate = self.iri("predicate")
        self.skip_ws()
        obj = self.object()
        self.skip_ws()
        if self.i >= len(self.text) or self.text[self.i] != ".":
            raise self.fail("expected ' .' at the end of the statement")
        self.i += 1
        self.skip_ws()
        if not self.at_end():
            raise self.fail(f"unexpected text after the statement: {self.text[self.i : self.i + 20]!r}")
        return subject, predicate, obj

    def object(self) -> Term:
        if self.text.startswith("_:", self.i):
            return self.bnode("object")
        if self.text.startswith('"', self.i):
            return self.literal()
        return self.iri("object")

    def iri(self, field: str) -> Term:
        if not self.text.startswith("<", self.i):
            raise self.fail("expected an IRI in angle brackets", field)
        end = self.text.find(">", self.i + 1)
        if end < 0:
            raise self.fail("unterminated IRI (no closing '>')", field)
        raw = self.text[self.i + 1 : end]
        self.i = end + 1
        value = self.unescape(raw, field, allowed="uU") if "\\" in raw else raw
        bad = _IRI_BAD.search(value)
        if bad:
            raise self.fail(f"invalid IRI <{value}>: character {bad.group()!r} is not allowed", field)
        if not _IRI_SCHEME.match(value):
            raise self.fail(f"invalid IRI <{value}>: it has no scheme (e.g. 'http:')", field)
        return Term("iri", value)

    def bnode(self, field: str) -> Term:
        m = _BNODE.match(self.text, self.i)
        if not m:
            raise self.fail("invalid blank node label", field)
        self.i = m.end()
        return Term("bnode", m.group())

    def literal(self) -> Term:
        start = self.i + 1
        j = start
        while True:
            m = _STRING_STOP.search(self.text, j)
            if m is None:
                raise self.fail("unterminated string literal", "object")
            if m.group() == '"':
                break
            j = m.end() + 1  # skip the escaped character
            if j > len(self.text):
                raise self.fail("unterminated string literal", "object")
        raw = self.text[start : m.start()]
        self.i = m.end()
        value = self.unescape(raw, "object") if "\\" in raw else raw
        if self.text.startswith("^^", self.i):
            self.i += 2
            datatype = self.iri("object").value
            return Term("literal", value, datatype=datatype)
        if self.text.startswith("@", self.i):
            lang = _LANG.match(self.text, self.i)
            if not lang:
                raise self.fail("invalid language tag", "object")
            self.i = lang.end()
            return Term("literal", value, datatype=RDF_LANG_STRING, lang=lang.group(1).lower())
        return Term("literal", value)

    def unescape(self, raw: str, field: str, allowed: str = "") -> str:
        out: list[str] = []
        k = 0
        while k < len(raw):
            ch = raw[k]
            if ch != "\\":
                out.append(ch)
                k += 1
                continue
            code = raw[k + 1 : k + 2]
            if code in ("u", "U"):
                width = 4 if code == "u" else 8
                digits = raw[k + 2 : k + 2 + width]
                if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                    raise self.fail(f"invalid \\{code} escape", field)
                point = int(digits, 16)
                if point > 0x10FFFF:
                    raise self.fail(f"invalid \\{code} escape (beyond U+10FFFF)", field)
                out.append(chr(point))
                k += 2 + width
            elif not allowed and code in _ESCAPES:
                out.append(_ESCAPES[code])
                k += 2
            else:
                raise self.fail(f"invalid escape '\\{code}'", field)
        return "".join(out)


def parse_ntriples_line(text: str, source: str = "", line: int = 0) -> tuple[Term, Term, Term] | None:
    """The statement on one N-Triples line, or None for a blank or comment line."""
    return _LineParser(text.rstrip("\r\n"), source, line).parse()


class NTriplesLoader:
    """Loads N-Triples ("nt"), streamed line by line with an own parser.

    Blank nodes keep their label as id (`_:b1` -> `_:b1`), so they are stable across loads of
    the same file (and shared with other files using the same label). Records carry their line.
    """

    format_name = "nt"

    def records(self, path: Path) -> Iterator[Record]:
        """Yield one record per statement, in file order."""
        source = str(path)
        for number, text in utf8_lines(path):
            statement = parse_ntriples_line(text, source, number)
            if statement is not None:
                yield to_record(*statement, number)


# -- Turtle -------------------------------------------------------------------------------------

_MAX_ROUNDS = 64


def skolemise(triples: Iterable[tuple[Term, Term, Term]]) -> dict[str, str]:
    """Stable ids for blank nodes (rdflib labels them randomly), from their neighbourhoods.

    Colour refinement: every blank node starts with the same colour; each round hashes its
    old colour with the sorted canonical form of its outgoing (predicate, object) and incoming
    (subject, predicate) edges, blank neighbours written as their colour, until the number of
    colours stops growing. The id is `_:` + the first 16 hex digits of the final colour; nodes
    that still share a colour (structurally indistinguishable) get `-1`, `-2`, ... suffixes.
    """
    out: dict[str, list[tuple[str, Term]]] = defaultdict(list)
    inc: dict[str, list[tuple[Term, str]]] = defaultdict(list)
    for s, p, o in triples:
        if s.kind == "bnode":
            out[s.value].append((p.value, o))
        if o.kind == "bnode":
            inc[o.value].append((s, p.value))
    nodes = sorted(set(out) | set(inc))
    colour = {b: "" for b in nodes}

    def key(term: Term) -> str:
        if term.kind == "bnode":
            return "_:" + colour[term.value]
        return "\x1f".join(term.sort_key())

    classes = 1 if nodes else 0
    for _ in range(_MAX_ROUNDS):
        new = {}
        for b in nodes:
            parts = sorted([f"o\x1e{p}\x1e{key(o)}" for p, o in out[b]] + [f"i\x1e{key(s)}\x1e{p}" for s, p in inc[b]])
            text = colour[b] + "\x1d" + "\x1d".join(parts)
            new[b] = hashlib.sha1(text.encode("utf-8")).hexdigest()
        colour = new
        count = len(set(colour.values()))
        if count == classes:
            break
        classes = count
    groups: dict[str, list[str]] = defaultdict(list)
    for b in nodes:
        groups[colour[b]].append(b)
    ids: dict[str, str] = {}
    for c, members in groups.items():
        for n, b in enumerate(members, start=1):
            ids[b] = f"_:{c[:16]}" if len(members) == 1 else f"_:{c[:16]}-{n}"
    return ids


def _from_rdflib(term: object) -> Term:
    from rdflib import BNode, Literal

    if isinstance(term, BNode):
        return Term("bnode", f"_:{term}")
    if isinstance(term, Literal):
        lang = (term.language or "").lower()
        datatype = RDF_LANG_STRING if lang else str(term.datatype or "")
        return Term("literal", str(term), datatype=datatype, lang=lang)
    return Term("iri", str(term))


def _bad_utf8_line(path: Path) -> int | None:
    try:
        for _ in utf8_lines(path):
            pass
    except InputError as exc:
        return exc.line
    return None


class TurtleLoader:
    """Loads Turtle ("ttl"). The whole file is parsed in memory by rdflib (not streamed).

    Blank-node ids: rdflib names blank nodes randomly, so each gets a deterministic id from
    its neighbourhood (see `skolemise`): the same file gives the same ids on every load.
    Records are emitted sorted by (subject, predicate, object) since rdflib keeps no
    document order; their `line` is 0 (unknown). Relative IRIs resolve against the file's
    location (rdflib's default base).
    """

    format_name = "ttl"

    def records(self, path: Path) -> Iterator[Record]:
        """Yield one record per statement, in a deterministic order."""
        from rdflib import Graph
        from rdflib.plugins.parsers.notation3 import BadSyntax

        source = str(path)
        graph = Graph()
        try:
            with open_binary(path) as stream:  # a missing or unreadable file is an InputError
                graph.parse(file=stream, format="turtle", publicID=Path(path).resolve().as_uri())
        except BadSyntax as exc:
            why = getattr(exc, "_why", None) or str(exc)
            raise InputError(f"invalid Turtle: {why}", source=source, line=exc.lines + 1) from None
        except UnicodeDecodeError:
            raise InputError("the file is not valid UTF-8", source=source, line=_bad_utf8_line(path)) from None
        except (SyntaxError, ValueError) as exc:
            raise InputError(f"invalid Turtle: {exc}", source=source) from None
        except (IndexError, KeyError, TypeError, AttributeError) as exc:  # rdflib on truncated input
            raise InputError(
                f"invalid Turtle (is the file cut short?); the parser failed with {type(exc).__name__}: {exc}",
                source=source,
            ) from None
        triples = [(_from_rdflib(s), _from_rdflib(p), _from_rdflib(o)) for s, p, o in graph]
        del graph
        ids = skolemise(triples)

        def fix(term: Term) -> Term:
            return Term("bnode", ids[term.value]) if term.kind == "bnode" else term

        stable = sorted(
            ((fix(s), p, fix(o)) for s, p, o in triples),
            key=lambda t: (t[0].sort_key(), t[1].sort_key(), t[2].sort_key()),
        )
        for s, p, o in stable:
            yield to_record(s, p, o, 0)
