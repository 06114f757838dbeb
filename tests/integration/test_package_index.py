"""A package index kept in Kùzu (node and rel tables made with Cypher, indexed in place with the packages
as hubs), asked as people type: packages that depend on packages (one rel table from a type to itself),
labels that read as passives (`LICENSED_UNDER`, `WRITTEN_IN`, `MAINTAINED_BY`). Expected answers are
computed from the rows here. Real Kùzu, real MiniLM, offline mode, direct strategy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from graph_rows import written_with_cypher
from test_own_graph_domains import ask
from test_own_graph_named_by_keys import made_and_indexed

from kgqa.api import Workspace

#: name, license, language, maintainers, dependencies
PACKAGES = [
    ("tinyhttp", "MIT", "Rust", ["Ada Lindqvist"], []),
    ("logkit", "Apache-2.0", "Python", ["Bo Nakamura"], []),
    ("fastjson", "MIT", "Rust", ["Ada Lindqvist", "Cyrus Haddad"], ["tinyhttp"]),
    ("webforms", "GPL-3.0", "JavaScript", ["Dina Okoro"], ["fastjson", "logkit"]),
    ("mailer", "MIT", "Python", ["Bo Nakamura"], ["webforms"]),
    ("crypton", "GPL-3.0", "Go", ["Cyrus Haddad"], ["tinyhttp", "logkit"]),
    ("zipflow", "BSD-3-Clause", "Rust", ["Dina Okoro"], ["fastjson"]),
]


def index_statements() -> list[tuple[str, dict]]:
    """The Cypher that writes the index's database, with its parameters."""
    out: list[tuple[str, dict]] = [
        (ddl, {})
        for ddl in (
            "CREATE NODE TABLE Package(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE Maintainer(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE License(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE Language(name STRING PRIMARY KEY)",
            "CREATE REL TABLE DEPENDS_ON(FROM Package TO Package)",
            "CREATE REL TABLE MAINTAINED_BY(FROM Package TO Maintainer)",
            "CREATE REL TABLE LICENSED_UNDER(FROM Package TO License)",
            "CREATE REL TABLE WRITTEN_IN(FROM Package TO Language)",
        )
    ]
    names = {
        "Package": {p[0] for p in PACKAGES},
        "License": {p[1] for p in PACKAGES},
        "Language": {p[2] for p in PACKAGES},
        "Maintainer": {m for p in PACKAGES for m in p[3]},
    }
    out += [(f"CREATE (:{table} {{name: $n}})", {"n": n}) for table, values in names.items() for n in sorted(values)]
    link = "MATCH (x:Package {{name: $x}}), (y:{} {{name: $y}}) CREATE (x)-[:{}]->(y)"
    for name, license_, language, maintainers, dependencies in PACKAGES:
        out.append((link.format("License", "LICENSED_UNDER"), {"x": name, "y": license_}))
        out.append((link.format("Language", "WRITTEN_IN"), {"x": name, "y": language}))
        out += [(link.format("Maintainer", "MAINTAINED_BY"), {"x": name, "y": m}) for m in maintainers]
        out += [(link.format("Package", "DEPENDS_ON"), {"x": name, "y": d}) for d in dependencies]
    return out


def make_index(path: Path) -> None:
    """The package index's own database, written with Cypher."""
    written_with_cypher(path, index_statements())


@pytest.fixture(scope="module")
def packages(tmp_path_factory, embedder) -> Iterator[Workspace]:
    yield from made_and_indexed(tmp_path_factory, "packages", make_index, "Package", embedder)


def package(name: str) -> tuple:
    return next(p for p in PACKAGES if p[0] == name)


def test_passive_labels_are_said_with_is(packages):
    """ "licensed under", "written in": the package *is* licensed under it (not "the licensed under of")."""
    _, text, _ = ask(packages, "what license does zipflow use")
    assert text.startswith("'zipflow' is licensed under BSD-3-Clause"), text
    _, text, _ = ask(packages, "is logkit written in rust")
    assert text.startswith("No: 'logkit' is written in Python"), text
    n = sum(p[1] == "MIT" for p in PACKAGES)
    _, text, result = ask(packages, "how many mit licensed packages are there")
    assert result["value"] == n and "are licensed under MIT" in text, text


def test_a_relation_of_a_type_to_itself_followed_twice(packages):
    """ "the dependencies of the dependencies of X": two steps along `DEPENDS_ON`, not one."""
    wanted = sorted({d for first in package("mailer")[4] for d in package(first)[4]})
    items, text, _ = ask(packages, "what are the dependencies of the dependencies of mailer")
    assert items == wanted, text
    items, text, _ = ask(packages, "what are the dependencies of the dependencies of zipflow")
    assert items == ["tinyhttp"] and text.startswith("tinyhttp [1]"), text  # as written, not "Tinyhttp"


def test_none_of_a_relation_and_the_same_value(packages):
    """ "no dependencies" names `depends on` by its stem; "the same license" names `licensed under`."""
    items, text, _ = ask(packages, "which packages have no dependencies")
    assert items == sorted(p[0] for p in PACKAGES if not p[4]) and "do not depend on anything" in text, text
    for a, b in (("crypton", "webforms"), ("crypton", "zipflow")):
        _, text, result = ask(packages, f"do {a} and {b} have the same license")
        same = package(a)[1] == package(b)[1]
        assert text.startswith("Yes" if same else "No") and result["operation"] == "compare", text


def test_a_described_subject_and_counts_of_a_relation(packages):
    """ "which *rust* packages depend on X": the packages are the subjects though a word stands between the
    wh-word and the verb; "at least 2 dependencies" counts `depends on`; a verb label said as a verb."""
    wanted = sorted(p[0] for p in PACKAGES if p[2] == "Rust" and "tinyhttp" in p[4])
    items, text, _ = ask(packages, "which rust packages depend on tinyhttp")
    assert items == wanted and "written in Rust" in text, text
    items, text, _ = ask(packages, "which packages have at least 2 dependencies")
    assert items == sorted(p[0] for p in PACKAGES if len(p[4]) >= 2) and "2 dependencies" in text, text
    _, text, _ = ask(packages, "how many packages does each maintainer maintain")
    assert text.startswith("Packages per maintainer:"), text
    _, text, _ = ask(packages, "how many packages are written in rust")
    assert "written in Rust" in text and "'written in' value" not in text, text


def test_the_hub_most_often_the_value_of_a_link(packages):
    """ "which package is depended on the most": of `depends on`'s values (packages themselves), the one most
    packages hold, said with the verb."""
    counts: dict[str, int] = {}
    for p in PACKAGES:
        for d in p[4]:
            counts[d] = counts.get(d, 0) + 1
    most = max(counts.values())
    items, text, _ = ask(packages, "which package is depended on the most")
    assert items == sorted(d for d, n in counts.items() if n == most), text
    assert "that the most packages depend on" in text, text
