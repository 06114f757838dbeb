"""Write relation-chain questions over the packaged demo graph, with their answers computed from the
demo CSV (1 to 4 hops through shared authors), in the evaluation format with `answers`, `hops` and
`form` columns: `python bench/demo_chain_questions.py OUT.csv`, then `kgqa eval OUT.csv` after
`kgqa demo` (see docs/multi-hop.md)."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from kgqa.demo.authorship import read_authorship


def main(out: Path) -> int:
    demo = read_authorship()
    authors, papers, year, label = demo.authors, demo.papers, demo.year, demo.label
    rows: list[tuple[str, ...]] = []

    def add(question: str, topic: str, hops: int, form: str, answers: set[str]) -> None:
        if answers:
            rows.append((f"d{len(rows) + 1:03d}", question, "[]", topic, form, str(hops), repr(sorted(answers)), form))

    prolific = sorted((a for a in papers if len(papers[a]) >= 2), key=lambda a: (-len(papers[a]), a))[:8]
    for a in prolific:
        name = label[a]
        co = {b for p in papers[a] for b in authors[p]} - {a}
        add(f"Which papers did {name} write?", a, 1, "author_papers", {label[p] for p in papers[a]})
        add(f"Who are the co-authors of {name}?", a, 2, "co_authors", {label[b] for b in co})
        add(f"In which years did {name} publish papers?", a, 2, "author_years", {year[p] for p in papers[a]})
        others = {p for b in co for p in papers[b]} - papers[a]
        add(f"Which papers did the co-authors of {name} write?", a, 3, "coauthor_papers", {label[p] for p in others})
        add(
            f"In which years did the co-authors of {name} publish papers?",
            a,
            4,
            "coauthor_years",
            {year[p] for p in others},
        )
    for p in sorted(authors)[:8]:
        title = label[p]
        sharing = {q for a in authors[p] for q in papers[a]} - {p}
        add(f"Who are the authors of '{title}'?", p, 1, "paper_authors", {label[a] for a in authors[p]})
        add(f"Which papers share an author with '{title}'?", p, 2, "share_author", {label[q] for q in sharing})
    with out.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(
            ("uid", "question", "golden_triples", "topic_entity_id", "retrieval_operation", "hops", "answers", "form")
        )
        w.writerows(rows)
    print(f"wrote {out}: {len(rows)} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "demo_chains.csv")))
