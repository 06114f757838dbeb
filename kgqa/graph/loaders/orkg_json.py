"""Streaming loader for ORKG JSON exports: one JSON array of triple and entity records."""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from kgqa.errors import InputError
from kgqa.graph.loaders.base import EntityOnlyRecord, EntityRecord, Record, TripleRecord
from kgqa.graph.loaders.delimited import open_binary

#: ORKG ids of literals: "L" followed by digits (resources are R…, predicates P…, classes C…).
LITERAL_ID = re.compile(r"^L\d+$")

_TRIPLE_KEYS = ("entity_subject", "predicate", "entity_object")
_ENTITY_KEYS = ("uid", "text", "knowledge_types")
_SPACE = re.compile(r"[ \t\r\n]*")
_CHUNK = 1 << 16


def is_orkg_literal(uid: str) -> bool:
    """True for ORKG literal ids (`L` + digits)."""
    return LITERAL_ID.match(uid) is not None


class _JsonArrayReader:
    """Decodes the elements of a top-level JSON array one at a time from a binary stream.

    Keeps a text buffer, the position of the next unread character, and the 1-based line
    number of that position, so every element and every error can be given its line.
    """

    def __init__(self, stream: BinaryIO, source: str, chunk_size: int = _CHUNK) -> None:
        self._stream = stream
        self._source = source
        self._chunk = chunk_size
        self._decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self._json = json.JSONDecoder()
        self._buf = ""
        self._pos = 0
        self._line = 1  # line number at self._pos
        self._lines_read = 0  # newlines in all text decoded so far
        self._eof = False

    # -- buffer handling ---------------------------------------------------------------------

    def _fill(self) -> bool:
        """Read and decode more input; False at end of file."""
        if self._eof:
            return False
        if self._pos > self._chunk:  # drop the consumed prefix (self._line already covers it)
            self._buf = self._buf[self._pos :]
            self._pos = 0
        size = max(self._chunk, len(self._buf) - self._pos)  # grows with a long element
        data = self._stream.read(size)
        final = not data
        try:
            text = self._decoder.decode(data, final=final)
        except UnicodeDecodeError as exc:
            bad = exc.object[: exc.start] if isinstance(exc.object, bytes) else b""
            line = self._lines_read + bad.count(b"\n") + 1
            raise InputError("the file is not valid UTF-8", source=self._source, line=line) from None
        self._lines_read += text.count("\n")
        self._buf += text
        if final:
            self._eof = True
        return bool(text) or not final

    def _advance(self, to: int) -> None:
        self._line += self._buf.count("\n", self._pos, to)
        self._pos = to

    def _skip_ws(self) -> bool:
        """Skip whitespace; False if the input ended."""
        while True:
            i = _SPACE.match(self._buf, self._pos).end()  # type: ignore[union-attr]
            self._advance(i)
            if i < len(self._buf):
                return True
            if not self._fill():
                return False

    def _peek(self) -> str | None:
        return self._buf[self._pos] if self._skip_ws() else None

    def _line_at(self, index: int) -> int:
        return self._line + self._buf.count("\n", self._pos, index)

    def _error(self, message: str, line: int | None = None, field: str | None = None) -> InputError:
        return InputError(message, source=self._source, line=line or self._line, field=field)

    # -- the array ----------------------------------------------------------------------------

    def elements(self) -> Iterator[tuple[Any, int, int]]:
        """Yield (value, 1-based record number, line where the value starts)."""
        first = self._peek()
        if first is None:
            raise InputError("the file is empty (expected a JSON array)", source=self._source)
        if first != "[":
            raise self._error(f"expected a JSON array ('[') but found {first!r}")
        self._advance(self._pos + 1)
        number = 0
        while True:
            ch = self._peek()
            if ch is None:
                raise self._error(f"truncated JSON: the array is not closed after record {number}")
            if ch == "]" and number == 0:
                self._advance(self._pos + 1)
                break
            number += 1
            start_line = self._line
            value = self._decode_value(number)
            yield value, number, start_line
            ch = self._peek()
            if ch is None:
                raise self._error(f"truncated JSON: the array is not closed after record {number}")
            if ch == "]":
                self._advance(self._pos + 1)
                break
            if ch != ",":
                raise self._error(f"invalid JSON after record {number}: expected ',' or ']' but found {ch!r}")
            self._advance(self._pos + 1)
        if self._peek() is not None:
            raise self._error("unexpected data after the end of the JSON array")

    def _decode_value(self, number: int) -> Any:
        while True:
            try:
                value, end = self._json.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                if not _certainly_invalid(exc, len(self._buf)) and self._fill():
                    continue  # the value may just be cut off by the end of the buffer
                what = "truncated JSON" if exc.pos >= len(self._buf) or "Unterminated" in exc.msg else "invalid JSON"
                raise self._error(f"{what} in record {number}: {exc.msg}", line=self._line_at(exc.pos)) from None
            if end >= len(self._buf) and not self._eof and self._fill():
                continue  # a number or literal may go on in the next chunk
            self._advance(end)
            return value


def _certainly_invalid(exc: json.JSONDecodeError, buffered: int) -> bool:
    """True if the error cannot be caused by the value going on past the buffer's end."""
    return exc.pos < buffered - 16 and not exc.msg.startswith("Unterminated string")


class OrkgJsonLoader:
    """Loads ORKG JSON exports (format "orkg-json"), streaming one array element at a time.

    The file is a JSON array. Records with `entity_subject`/`predicate`/`entity_object` are
    triples whose ends are `{uid, text, knowledge_types}` objects; other records are entities
    `{uid, text, knowledge_types}`. A missing `text` or `knowledge_types` means "not stated".
    Literal rule: an ORKG id matching `^L\\d+$` is a literal (resources are `R…`).
    Records carry the line where they start; errors also name the record number.
    """

    format_name = "orkg-json"

    def __init__(self, chunk_size: int = _CHUNK) -> None:
        self._chunk = chunk_size

    def records(self, path: Path) -> Iterator[Record]:
        """Yield a TripleRecord or EntityOnlyRecord per array element, in file order."""
        source = str(path)
        with open_binary(path) as stream:
            reader = _JsonArrayReader(stream, source, self._chunk)
            for value, number, line in reader.elements():
                yield _to_record(value, number, line, source)


_Fail = Callable[[str, "str | None"], InputError]


def _to_record(value: Any, number: int, line: int, source: str) -> Record:
    def fail(message: str, field: str | None = None) -> InputError:
        return InputError(f"record {number}: {message}", source=source, line=line, field=field)

    if not isinstance(value, dict):
        raise fail(f"expected a JSON object, got {_json_type(value)}")
    if any(key in value for key in _TRIPLE_KEYS):
        for key in _TRIPLE_KEYS:
            if key not in value:
                raise fail(f"triple record without '{key}'", key)
        predicate = value["predicate"]
        if not isinstance(predicate, str):
            raise fail(f"'predicate' must be a string, got {_json_type(predicate)}", "predicate")
        if not predicate.strip():
            raise fail("'predicate' is empty", "predicate")
        subject = _entity(value["entity_subject"], "entity_subject", fail)
        obj = _entity(value["entity_object"], "entity_object", fail)
        return TripleRecord(subject, predicate, obj, line)
    if any(key in value for key in _ENTITY_KEYS):
        return EntityOnlyRecord(_entity(value, "", fail), line)
    raise fail("neither a triple (entity_subject, predicate, entity_object) nor an entity (uid, text, knowledge_types)")


def _entity(value: Any, where: str, fail: _Fail) -> EntityRecord:
    prefix = f"{where}." if where else ""
    if not isinstance(value, dict):
        raise fail(f"'{where}' must be an object, got {_json_type(value)}", where)
    uid = value.get("uid")
    if not isinstance(uid, str) or not uid.strip():
        problem = "is missing" if uid is None else "must be a non-empty string"
        raise fail(f"'{prefix}uid' {problem}", f"{prefix}uid")
    label: str | None = None
    if "text" in value:
        label = value["text"]
        if not isinstance(label, str):
            raise fail(f"'{prefix}text' must be a string, got {_json_type(label)}", f"{prefix}text")
    types: tuple[str, ...] | None = None
    if "knowledge_types" in value:
        raw = value["knowledge_types"]
        if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
            raise fail(f"'{prefix}knowledge_types' must be a list of strings", f"{prefix}knowledge_types")
        types = tuple(raw)
    return EntityRecord(uid, label, types, is_orkg_literal(uid))


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"
