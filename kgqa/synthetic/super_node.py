"""A super-node graph: one paper ("The Big Collaboration", P1) with N authors, an edge per author, a venue
and a year, beside four small papers at the same venue (bench/super_node.py and the super-node tests)."""

from __future__ import annotations

from kgqa.graph.edits import triple_record
from kgqa.graph.loaders.base import TripleRecord

TITLE = "The Big Collaboration"
VENUE = "Conference on Large Teams"


def super_node_records(authors: int) -> list[TripleRecord]:
    """The graph's triple records: P1 with `authors` authors A000000... ("Author Number i")."""
    out = [
        triple_record(
            "P1",
            "author",
            f"A{i:06d}",
            subject_label=TITLE,
            subject_types=["Paper"],
            object_label=f"Author Number {i}",
            object_types=["Person"],
        )
        for i in range(authors)
    ]
    out += [
        triple_record("P1", "venue", "V1", object_label=VENUE, object_types=["Venue"]),
        triple_record("P1", "publication year", "2021", literal=True),
    ]
    for p in range(2, 6):
        out += [
            triple_record(f"P{p}", "author", f"A{p:06d}", subject_label=f"Small Paper {p}", subject_types=["Paper"]),
            triple_record(f"P{p}", "venue", "V1"),
        ]
    return out
