"""Questions about one paper each, typed the way people type them (the title in lower case, no quotes) and
worded in several ways ("what venue published X", "where was X published", "how was X evaluated"), over
the packaged demo graph after `kgqa demo`; the answers are read from the graph itself (Cypher), not
from HubLink. Offline mode, direct strategy, no topic given.

    python bench/demo_typed_titles.py .kgqa/demo.kuzu [--papers 12] [--seed 7]

Prints each question that misses and the share answered exactly (the answer's items equal the graph's).
"""

from __future__ import annotations

import argparse
import os
import random
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from kgqa.api import Workspace
from kgqa.config import RetrievalParams, Settings

#: predicate, hops from the paper (1: its own, 2: through its contribution), wordings ({t}: the title).
FORMS = [
    ("venue", 1, ["what venue published {t}", "where was {t} published", "which venue was {t} published in"]),
    ("publication year", 1, ["what year was {t} published", "when did {t} come out", "which year is {t} from"]),
    ("author", 1, ["who wrote {t}", "who are the authors of {t}", "which people authored {t}"]),
    (
        "evaluation method",
        2,
        ["which evaluation method is used in {t}", "how was {t} evaluated", "what evaluation method does {t} use"],
    ),
    ("research field", 1, ["what research field is {t} in", "which field does {t} belong to"]),
]
_ONE_HOP = "MATCH (p:Entity {id: $id})-[t:Triple {predicate: $p}]->(o:Entity) RETURN DISTINCT o.label"
_TWO_HOPS = (
    "MATCH (p:Entity {id: $id})-[:Triple {predicate: 'contribution'}]->(:Entity)-[t:Triple {predicate: $p}]->"
    "(o:Entity) RETURN DISTINCT o.label"
)


def questions(ws: Workspace, papers: int, seed: int) -> list[tuple[str, set[str]]]:
    """(question, the graph's answers) for `papers` papers drawn with `seed`, one wording per form."""
    rows = ws.store.query("MATCH (p:Entity) WHERE list_contains(p.types, 'Paper') RETURN p.id, p.label ORDER BY p.id")[
        1
    ]
    out = []
    for i, (pid, title) in enumerate(random.Random(seed).sample(rows, min(papers, len(rows)))):
        for predicate, hops, wordings in FORMS:
            found = ws.store.query(_ONE_HOP if hops == 1 else _TWO_HOPS, {"id": pid, "p": predicate})[1]
            if found:
                out.append((wordings[i % len(wordings)].format(t=title.lower()), {r[0] for r in found}))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("db")
    ap.add_argument("--papers", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    right = 0
    with Workspace(Settings(db_path=args.db), read_only=True) as ws:
        asked = questions(ws, args.papers, args.seed)
        for question, want in asked:
            result = ws.ask(question, RetrievalParams(strategy="direct")).result or {}
            items = result.get("items") or ([result["value"]] if result.get("value") is not None else [])
            got = {str(x).casefold() for x in items}
            if got == {w.casefold() for w in want}:
                right += 1
            else:
                print(f"miss: {question} -> {sorted(got)[:4]} (the graph: {sorted(want)[:4]})")
    print(f"{right} / {len(asked)} answered exactly (offline mode, direct strategy, lower-case titles)")
    return 0 if asked else 1


if __name__ == "__main__":
    sys.exit(main())
