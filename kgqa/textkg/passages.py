"""Source passages: a text file split into sentences, each with its character offsets."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from kgqa.errors import InputError

#: Words after which a full stop does not end a sentence.
_ABBREVIATIONS = frozenset("e.g i.e etc vs dr mr mrs ms prof st jr sr inc ltd co fig no al approx".split())
_END = re.compile(r"[.!?]+[\"')\]]*(?=\s+|$)")


@dataclass(frozen=True)
class Passage:
    """One sentence of a source file."""

    id: str  # <file digest>#<sentence number>
    source: str  # the file as given
    sentence: int  # 1-based
    start: int  # character offsets in the file's text
    end: int
    text: str


def read_text(path: str | Path) -> str:
    """A text file's content (UTF-8); InputError naming the file otherwise."""
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file", source=str(p))
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", source=str(p)) from exc
    bad = _CONTROL.search(text)  # they would end up in entity labels
    if bad:
        raise InputError(
            f"control character {bad.group()!r} is not allowed in text",
            source=str(p),
            line=text.count("\n", 0, bad.start()) + 1,
        )
    return text


#: C0 control characters and DEL, except tab, line feed and carriage return.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def split_sentences(text: str, source: str) -> list[Passage]:
    """The sentences of `text` with offsets. A full stop after a single capital letter (an initial) or a
    known abbreviation does not end a sentence; blank lines always do."""
    digest = hashlib.sha1(f"{source}\x1f{text}".encode()).hexdigest()[:12]
    out: list[Passage] = []
    for block in re.finditer(r"[^\n]+(?:\n(?!\s*\n)[^\n]*)*", text):
        start = block.start()
        for m in _END.finditer(block.group(0)):
            end = block.start() + m.end()
            before = re.search(r"([A-Za-z.]+)\.$", text[start : block.start() + m.start() + 1])
            word = before.group(1).lower().rstrip(".") if before else ""
            if m.group(0).startswith(".") and (len(word) == 1 and word.isalpha() or word in _ABBREVIATIONS):
                continue
            _add(out, text, start, end, source, digest)
            start = end
        _add(out, text, start, block.end(), source, digest)
    return out


def _add(out: list[Passage], text: str, start: int, end: int, source: str, digest: str) -> None:
    raw = text[start:end]
    lead = len(raw) - len(raw.lstrip())
    body = raw.strip()
    if body:
        n = len(out) + 1
        out.append(Passage(f"{digest}#{n}", source, n, start + lead, start + lead + len(body), " ".join(body.split())))
