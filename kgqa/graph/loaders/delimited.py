"""Loader for delimited triple files (CSV, TSV and pipe-separated), with or without a header row."""

from __future__ import annotations

import csv
import gzip
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from kgqa.errors import InputError
from kgqa.graph.loaders.base import EntityRecord, Record, TripleRecord
from kgqa.types import synthetic_literal_id

#: The columns a header row may name (matched case-insensitively, surrounding whitespace ignored).
COLUMNS = (
    "subject",
    "predicate",
    "object",
    "subject_label",
    "subject_types",
    "object_label",
    "object_types",
    "object_is_literal",
)
REQUIRED = ("subject", "predicate", "object")
TYPE_SEPARATOR = "|"

_TRUE = {"true", "1", "yes"}
_FALSE = {"false", "0", "no", ""}


def open_binary(path: Path) -> BinaryIO:
    """Open a file for reading bytes, decompressed when its name ends in .gz; InputError (not OSError)
    if it cannot be opened or is not a whole gzip stream."""
    try:
        if str(path).lower().endswith(".gz"):
            _check_gzip(path)
            return gzip.open(path, "rb")  # type: ignore[return-value]
        return open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot open the file: {exc.strerror or exc}", source=str(path)) from None


def _check_gzip(path: Path) -> None:
    """Read the compressed file through once: a damaged or cut-short stream is an InputError before
    any record is read."""
    try:
        with gzip.open(path, "rb") as stream:
            while stream.read(1 << 20):
                pass
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise InputError(f"not a valid gzip file ({exc})", source=str(path)) from None


def utf8_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield (1-based line number, decoded line with its line ending) of a UTF-8 file.

    A leading byte order mark is dropped; undecodable bytes raise InputError naming the line.
    """
    with open_binary(path) as stream:
        for number, raw in enumerate(stream, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError("the file is not valid UTF-8", source=str(path), line=number) from None
            if number == 1 and text.startswith("\ufeff"):
                text = text[1:]
            yield number, text


def parse_bool(value: str) -> bool | None:
    """true/false/1/0/yes/no (any case; empty = false); None if not a boolean."""
    v = value.strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    return None


def _is_blank(row: list[str]) -> bool:
    return not row or (len(row) == 1 and not row[0].strip())


def _header(row: list[str], source: str, line: int) -> dict[str, int] | None:
    """Column positions if `row` is a header; None if it is a data row."""
    names = [cell.strip().lower() for cell in row]
    known = [n in COLUMNS for n in names]
    if not any(known):
        return None
    if not all(known):
        bad = next(row[i].strip() for i, ok in enumerate(known) if not ok)
        raise InputError(
            f"unknown header column '{bad}' (known columns: {', '.join(COLUMNS)})", source=source, line=line, field=bad
        )
    positions: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in positions:
            raise InputError(f"header column '{name}' appears twice", source=source, line=line, field=name)
        positions[name] = i
    for name in REQUIRED:
        if name not in positions:
            raise InputError(f"the header has no '{name}' column", source=source, line=line, field=name)
    return positions


class DelimitedLoader:
    """Loads triples from CSV ("csv", comma), TSV ("tsv", tab) or pipe-separated ("psv", `|`: MetaQA's
    `kb.txt`; nothing quoted, and a header's types cell cannot list several types) files.

    If every cell of the first row is a known column name (see COLUMNS) the row is a header
    and columns are taken by name (subject, predicate and object required); otherwise there is
    no header and every row has exactly three cells: subject, predicate, object (a resource).
    Surrounding whitespace of cells is ignored; fully blank lines are skipped. Types are
    separated by `|`. An absent column or empty cell leaves a label or types "not stated".
    For literal objects (`object_is_literal`), a given `object_label` is the value and the
    object cell its id; without a label the object cell is the value and the id is synthetic.
    """

    def __init__(self, delimiter: str = ",") -> None:
        self.delimiter = delimiter
        self.format_name = {"\t": "tsv", "|": "psv"}.get(delimiter, "csv")

    def records(self, path: Path) -> Iterator[Record]:
        """Yield one TripleRecord per data row; line = the row's first line."""
        source = str(path)
        # pipe-separated files (MetaQA's kb.txt) quote nothing: a '"' in a name is part of it
        lines = (text for _, text in utf8_lines(path))
        if self.delimiter == "|":
            reader = csv.reader(lines, delimiter="|", strict=True, quoting=csv.QUOTE_NONE)
        else:
            reader = csv.reader(lines, delimiter=self.delimiter, strict=True)
        columns: dict[str, int] | None = None
        first = True
        last_line = 0
        while True:
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                raise InputError(
                    f"malformed {self.format_name.upper()} row: {exc}", source=source, line=reader.line_num
                ) from None
            line, last_line = last_line + 1, reader.line_num
            if _is_blank(row):
                continue
            if first:
                first = False
                columns = _header(row, source, line)
                if columns is not None:
                    continue
            yield self._record(row, columns, source, line)
        if first:
            raise InputError("the file is empty (no rows)", source=source)

    def _record(self, row: list[str], columns: dict[str, int] | None, source: str, line: int) -> TripleRecord:
        expected = len(columns) if columns is not None else 3
        if len(row) != expected:
            what = "the header's columns" if columns is not None else "subject, predicate, object"
            raise InputError(f"expected {expected} cells ({what}), got {len(row)}", source=source, line=line)
        if columns is None:
            columns = {"subject": 0, "predicate": 1, "object": 2}

        def cell(name: str) -> str | None:
            i = columns.get(name)
            if i is None:
                return None
            value = row[i].strip()
            return value or None

        def required(name: str) -> str:
            value = cell(name)
            if value is None:
                raise InputError(f"empty {name}", source=source, line=line, field=name)
            return value

        subject_id, predicate, object_cell = required("subject"), required("predicate"), required("object")
        flag = row[columns["object_is_literal"]] if "object_is_literal" in columns else ""
        is_literal = parse_bool(flag)
        if is_literal is None:
            raise InputError(
                f"'{flag.strip()}' is not a boolean (true/false/1/0/yes/no)",
                source=source,
                line=line,
                field="object_is_literal",
            )
        subject = EntityRecord(subject_id, cell("subject_label"), _types(cell("subject_types")))
        object_label = cell("object_label")
        object_types = _types(cell("object_types"))
        if is_literal and object_label is None:
            obj = EntityRecord(synthetic_literal_id(object_cell), object_cell, object_types, True)
        else:
            obj = EntityRecord(object_cell, object_label, object_types, is_literal)
        return TripleRecord(subject, predicate, obj, line)


def _types(cell: str | None) -> tuple[str, ...] | None:
    if cell is None:
        return None
    types = tuple(t.strip() for t in cell.split(TYPE_SEPARATOR) if t.strip())
    return types or None
