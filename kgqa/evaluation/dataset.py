"""Reads KGQA question sets in the thesis's CSV format (uid, question, golden_triples, ...)."""

from __future__ import annotations

import ast
import csv
from dataclasses import dataclass, field
from pathlib import Path

from kgqa.errors import InputError

REQUIRED = ("uid", "question", "golden_triples")


@dataclass(frozen=True)
class Question:
    """One evaluation question with its golden triples and descriptive labels."""

    uid: str
    question: str
    golden: tuple[str, ...]
    topic_entity: str | None = None
    retrieval_operation: str = ""
    use_case: str = ""
    hops: str = ""
    extra: dict[str, str] = field(default_factory=dict)


def read_questions(path: str | Path) -> list[Question]:
    """The questions of a CSV file, de-duplicated by uid (first occurrence kept)."""
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file", source=str(path))
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            header = reader.fieldnames or []
            missing = [c for c in REQUIRED if c not in header]
            if missing:
                raise InputError(f"missing column(s) {', '.join(missing)}", source=str(path), line=1)
            out: dict[str, Question] = {}
            for row in reader:
                line = reader.line_num
                uid = (row.get("uid") or "").strip()
                if not uid:
                    raise InputError("empty uid", source=str(path), line=line, field="uid")
                if uid in out:
                    continue
                out[uid] = Question(
                    uid,
                    (row.get("question") or "").strip(),
                    _golden(row.get("golden_triples") or "", path, line),
                    (row.get("topic_entity_id") or "").strip() or None,
                    row.get("retrieval_operation") or "",
                    row.get("use_case") or "",
                    row.get("hops") or "",
                    {k: v for k, v in row.items() if k and k not in REQUIRED},
                )
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 ({exc.reason})", source=str(path)) from exc
    if not out:
        raise InputError("no questions", source=str(path))
    return list(out.values())


def _golden(text: str, path: Path, line: int) -> tuple[str, ...]:
    text = text.strip()
    if not text:
        return ()
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError) as exc:
        raise InputError(f"not a list literal: {exc}", source=str(path), line=line, field="golden_triples") from exc
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise InputError("must be a list of triple strings", source=str(path), line=line, field="golden_triples")
    return tuple(value)
