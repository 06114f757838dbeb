"""Who wrote which demo paper and when, read straight from the demo CSV: the ground truth that chain
questions over the demo graph (bench/demo_chain_questions.py, tests) are checked against."""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass, field

from kgqa.demo import demo_graph_path


@dataclass
class Authorship:
    """paper -> authors, author -> papers, paper -> year and id -> label of the demo graph."""

    authors: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    papers: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    year: dict[str, str] = field(default_factory=dict)
    label: dict[str, str] = field(default_factory=dict)


def read_authorship() -> Authorship:
    """The demo graph's authorship, publication years and labels."""
    out = Authorship()
    with open(demo_graph_path(), encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            out.label[r["subject"]] = r["subject_label"]
            if r["object_label"]:
                out.label[r["object"]] = r["object_label"]
            if r["predicate"] == "author":
                out.authors[r["subject"]].add(r["object"])
                out.papers[r["object"]].add(r["subject"])
            elif r["predicate"] == "publication year":
                out.year[r["subject"]] = r["object"]
    return out
