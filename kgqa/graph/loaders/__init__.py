"""Input-file loaders: a registry by format name and detection of the format from the extension."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kgqa.errors import UnsupportedFormatError
from kgqa.graph.loaders.base import Loader
from kgqa.graph.loaders.delimited import DelimitedLoader, utf8_lines
from kgqa.graph.loaders.orkg_json import OrkgJsonLoader
from kgqa.graph.loaders.rdf import NTriplesLoader, TurtleLoader

#: Format name -> factory of its loader.
LOADERS: dict[str, Callable[[], Loader]] = {
    "orkg-json": OrkgJsonLoader,
    "csv": lambda: DelimitedLoader(","),
    "tsv": lambda: DelimitedLoader("\t"),
    "psv": lambda: DelimitedLoader("|"),
    "nt": NTriplesLoader,
    "ttl": TurtleLoader,
}

#: The format names, e.g. for the CLI's choices.
FORMATS: tuple[str, ...] = tuple(LOADERS)

#: File extension (lower case, with dot) -> format name.
EXTENSIONS: dict[str, str] = {
    ".json": "orkg-json",
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".psv": "psv",
    ".nt": "nt",
    ".ttl": "ttl",
    ".turtle": "ttl",
}


def detect_format(path: str | Path) -> str:
    """The format of a file by its extension; UnsupportedFormatError if it has no known one."""
    name = Path(path)
    if name.suffix.lower() == ".gz":  # compressed: the format is the extension before .gz
        name = name.with_suffix("")
    suffix = name.suffix.lower()
    fmt = _delimiter_of_first_line(Path(path)) if suffix in TEXT_EXTENSIONS else EXTENSIONS.get(suffix)
    if fmt is None:
        accepted = ", ".join(f"{ext} ({name})" for ext, name in EXTENSIONS.items())
        accepted += ", .txt (tsv, psv or csv: three cells on its first line)"
        what = f"extension '{suffix}'" if suffix else "no extension"
        raise UnsupportedFormatError(
            f"cannot detect the input format ({what}); accepted: {accepted}; "
            f"or name the format explicitly ({', '.join(FORMATS)})",
            source=str(path),
        )
    return fmt


#: Extensions that say nothing of the delimiter: the first line decides (MetaQA ships `kb.txt`).
TEXT_EXTENSIONS = frozenset({".txt"})


def _delimiter_of_first_line(path: Path) -> str | None:
    """tsv, psv or csv: the delimiter that splits the file's first non-blank line into three or more
    cells (tab first, then `|`, then comma); None where none does. InputError where the file cannot be
    opened or is not UTF-8."""
    for _, line in utf8_lines(path):
        if line.strip():
            cells = line.rstrip("\r\n")
            return next(
                (fmt for fmt, d in (("tsv", "\t"), ("psv", "|"), ("csv", ",")) if len(cells.split(d)) >= 3), None
            )
    return None


def get_loader(fmt: str) -> Loader:
    """A new loader for a format name; UnsupportedFormatError listing the known formats."""
    factory = LOADERS.get(fmt.strip().lower())
    if factory is None:
        raise UnsupportedFormatError(f"unknown input format '{fmt}'; known formats: {', '.join(FORMATS)}")
    return factory()


__all__ = ["EXTENSIONS", "FORMATS", "LOADERS", "TEXT_EXTENSIONS", "Loader", "detect_format", "get_loader"]
