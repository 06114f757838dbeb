"""Every repository path the README and docs/ name exists, so the pages follow the code when it moves.
Paths of the worked examples in docs/extending.md (a retriever, store or provider that is not there yet)
are exempt by name."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PATH = re.compile(r"`((?:kgqa|cli|sql|schema|procedures|tests|bench|scripts|docker)/[\w./-]*\w)`")
#: The hypothetical additions docs/extending.md walks through.
EXAMPLES = ("grail", "qdrant", "openai", "<name>")


def named_paths() -> list[tuple[str, int, str]]:
    found = []
    for page in PAGES:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            found += [(page.relative_to(ROOT).as_posix(), n, m.group(1)) for m in PATH.finditer(line)]
    return found


def test_pages_name_paths():
    assert len(named_paths()) > 30  # the check reads the pages it means to read


def test_every_named_path_exists():
    missing = [
        f"{page}:{n}: {path}"
        for page, n, path in named_paths()
        if not any(x in path for x in EXAMPLES) and not (ROOT / path.rstrip("/")).exists()
    ]
    assert not missing, "paths named in the docs that do not exist:\n" + "\n".join(missing)
