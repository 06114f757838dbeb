"""Writes a user-worded question set over an indexed graph, with golden answers computed from the graph.

Questions are worded as people type them (lower case, typos, imperatives, synonyms, "z to a", "newest
first", "compare X and Y in terms of Z") and labelled by operation (`retrieval_operation`) and wording
kind (`wording`). The expected answers are computed here straight from the graph's triples (read with
plain Cypher), not by the answering code. The templates are this file's own.

    python bench/user_questions.py --db .kgqa/demo.kuzu --hub-type Paper --out bench/user_questions/demo.csv

Then: kgqa eval bench/user_questions/demo.csv --out runs/demo-user.jsonl && kgqa eval report ...
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import uuid
from collections import defaultdict
from pathlib import Path

import kuzu

FACTS = """
MATCH (p:Entity)-[t:Triple]->(v:Entity) WHERE list_contains(p.types, $t)
RETURN p.id, p.label, '' AS via, '' AS mid, '' AS mid_label, t.predicate, v.id, v.label
UNION ALL
MATCH (p:Entity)-[t1:Triple]->(m:Entity)-[t2:Triple]->(v:Entity)
WHERE list_contains(p.types, $t) AND t2.predicate = 'has list element'
RETURN p.id, p.label, t1.predicate AS via, m.id AS mid, m.label AS mid_label, t2.predicate, v.id, v.label
"""


def typo(word: str, rng: random.Random) -> str:
    """One swapped pair of letters inside the word (kept as is when too short)."""
    if len(word) < 6:
        return word
    i = rng.randrange(1, len(word) - 3)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def typo_name(name: str, rng: random.Random) -> str:
    """A typo in the longest word of a name."""
    words = name.split()
    k = max(range(len(words)), key=lambda i: len(words[i]))
    words[k] = typo(words[k], rng)
    return " ".join(words)


def canonical(sid: str, slabel: str, pred: str, oid: str, olabel: str) -> str:
    """The canonical triple string (literal objects with synthetic ids show their label alone)."""

    def disp(i: str, label: str) -> str:
        if i.startswith("_lit:") or not i:
            return label
        return f"{i}:{label}" if label and label != i else i

    return f"({disp(sid, slabel)}, {pred}, {disp(oid, olabel)})"


class Graph:
    """The hubs' venue, year and author facts as plain dictionaries."""

    def __init__(self, db: str, hub_type: str) -> None:
        conn = kuzu.Connection(kuzu.Database(db, read_only=True))
        rows = conn.execute(FACTS, {"t": hub_type}).get_all()
        self.title: dict[str, str] = {}
        self.values: dict[tuple[str, str], list[tuple[str, list[str]]]] = defaultdict(list)
        for pid, plabel, via, mid, mid_label, pred, vid, vlabel in rows:
            self.title[pid] = plabel
            attr = via if via else pred
            if via:
                triple = canonical(mid, mid_label, pred, vid, vlabel)
                trail = [canonical(pid, plabel, via, mid, mid_label), triple]
            else:
                trail = [canonical(pid, plabel, pred, vid, vlabel)]
            self.values[(pid, attr)].append((vlabel, trail))
        self.attrs = {a for _, a in self.values}
        self.author = "authors" if "authors" in self.attrs else "author"

    def of(self, pid: str, attr: str) -> list[str]:
        return [v for v, _ in self.values.get((pid, attr), []) if not _is_container(v)]

    def trail(self, pid: str, attr: str) -> list[str]:
        return [t for v, ts in self.values.get((pid, attr), []) if not _is_container(v) for t in ts]

    def hubs_with(self, attr: str, value: str) -> list[str]:
        return sorted(p for p in self.title if value in self.of(p, attr))


def _is_container(label: str) -> bool:
    return label.lower().endswith(" list")


def short(label: str) -> str:
    """The acronym of a venue ("International ... (ICSA)" -> "ICSA"), else the label."""
    m = re.search(r"\(([A-Z][A-Za-z]+)\)\s*$", label)
    return m.group(1) if m else label


def build(g: Graph, rng: random.Random, n_each: int) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    papers = sorted(g.title)
    venues = sorted({v for p in papers for v in g.of(p, "venue")})
    years = sorted({v for p in papers for v in g.of(p, "publication year")})
    authors = sorted({v for p in papers for v in g.of(p, g.author)})
    multi = [a for a in authors if len(g.hubs_with(g.author, a)) >= 2] or authors

    def add(q: str, gold: str, triples: list[str], op: str, wording: str) -> None:
        rows.append(
            {
                "uid": str(uuid.UUID(int=rng.getrandbits(128))),
                "question": q,
                "golden_answer": gold,
                "golden_triples": str(list(dict.fromkeys(triples))),
                "topic_entity_id": "",
                "retrieval_operation": op,
                "wording": wording,
            }
        )

    def some(seq: list[str], k: int) -> list[str]:
        return rng.sample(seq, min(k, len(seq)))

    for p in some(papers, n_each):  # lookups: who wrote, where did it appear, when
        t, au = g.title[p], g.of(p, g.author)
        if au:
            gold = f"The authors of '{t}' are {', '.join(au)}."
            low = t.lower()
            add(f"who wrote '{t}'?", gold, g.trail(p, g.author), "lookup", "synonym")
            add(f"who wrote {low}", gold, g.trail(p, g.author), "lookup", "lower case")
    for p in some(papers, n_each):
        t, ve = g.title[p], g.of(p, "venue")
        if ve:
            gold = f"'{t}' appeared at {ve[0]}."
            add(f"In which conference did '{t}' appear?", gold, g.trail(p, "venue"), "lookup", "synonym")
            words = t.split()
            partial = " ".join(words[: max(4, len(words) * 2 // 3)])
            add(f"where was '{partial}' published", gold, g.trail(p, "venue"), "lookup", "partial title")
    for p in some(papers, n_each):
        t, ye = g.title[p], g.of(p, "publication year")
        if ye:
            gold = f"'{t}' was published in {ye[0]}."
            add(
                f"what year did {typo_name(t, rng).lower()} come out?",
                gold,
                g.trail(p, "publication year"),
                "lookup",
                "typo",
            )
    for v in venues:  # counts over the whole graph
        hubs = g.hubs_with("venue", v)
        trail = [t for h in hubs for t in g.trail(h, "venue")]
        gold = f"{len(hubs)} papers were published at {v}."
        add(f"How many papers were published at {short(v)}?", gold, trail, "counting", "plain")
        add(f"hw many papers appeared at {short(v).lower()}", gold, trail, "counting", "typo")
        add(f"count the papers in {short(v)}", gold, trail, "counting", "imperative")
        for y in some(years, 3):
            both = [h for h in hubs if y in g.of(h, "publication year")]
            trail2 = [t for h in both for a in ("venue", "publication year") for t in g.trail(h, a)]
            gold = f"{len(both)} papers were published at {v} in {y}."
            add(f"number of {short(v).lower()} papers from {y}?", gold, trail2, "counting", "lower case")
    for y in years + ["2031"]:
        hubs = g.hubs_with("publication year", y)
        n = len(hubs)
        gold = (
            f"{n} paper{'s' if n != 1 else ''} {'were' if n != 1 else 'was'} published in {y}."
            if hubs
            else f"No papers (0) were published in {y}."
        )
        add(
            f"how many papers came out in {y}",
            gold,
            [t for h in hubs for t in g.trail(h, "publication year")],
            "counting",
            "synonym",
        )
    for a in some(multi, n_each):
        hubs = g.hubs_with(g.author, a)
        gold = f"{a} published {len(hubs)} papers."
        trail = [t for h in hubs for t in g.trail(h, g.author) if a in t]
        add(f"how many papers did {a.lower()} publish?", gold, trail, "counting", "lower case")
        add(f"how many papers has {typo_name(a, rng)} written", gold, trail, "counting", "typo")
        listing = "; ".join(f"'{g.title[h]}'" for h in hubs)
        add(f"show me the papers by {a}", f"The papers of {a} are {listing}.", trail, "list", "imperative")
        ranked = sorted(hubs, key=lambda h: (g.of(h, "publication year") or ["0"])[0], reverse=True)
        listing = "; ".join(f"'{g.title[h]}' ({(g.of(h, 'publication year') or ['?'])[0]})" for h in ranked)
        trail3 = trail + [t for h in hubs for t in g.trail(h, "publication year")]
        if len({(g.of(h, "publication year") or ["0"])[0] for h in hubs}) == len(hubs):
            add(
                f"list {a.lower()}'s papers newest first",
                f"The papers of {a}, newest first: {listing}.",
                trail3,
                "ranking",
                "newest first",
            )
    for name in ("John Doe", "Maria Nobody", "Kwame Unknown"):
        add(
            f"How many papers did {name} publish?",
            f"There is no author named '{name}' in this graph.",
            [],
            "absent",
            "plain",
        )
    for v in venues:  # groupings and rankings of a venue's papers
        hubs = g.hubs_with("venue", v)
        per: dict[str, int] = defaultdict(int)
        for h in hubs:
            for y in g.of(h, "publication year"):
                per[y] += 1
        listing = ", ".join(f"{y}: {n}" for y, n in sorted(per.items()))
        trail = [t for h in hubs for a in ("venue", "publication year") for t in g.trail(h, a)]
        add(
            f"how many {short(v)} papers per year",
            f"Papers at {v} per publication year: {listing}.",
            trail,
            "grouping",
            "plain",
        )
        add(
            f"{short(v).lower()} papers broken down by year",
            f"Papers at {v} per publication year: {listing}.",
            trail,
            "grouping",
            "synonym",
        )
    per_venue = {v: len(g.hubs_with("venue", v)) for v in venues}
    top = max(per_venue.values()) if per_venue else 0
    winners = [v for v, n in per_venue.items() if n == top]
    if len(winners) == 1:
        trail = [t for h in g.hubs_with("venue", winners[0]) for t in g.trail(h, "venue")]
        gold = f"The venue with the most papers is {winners[0]}: {top} papers."
        add("which venue has the most papers?", gold, trail, "superlative", "plain")
        add("which venue has teh most papers", gold, trail, "superlative", "typo")
    counts = {a: len(g.hubs_with(g.author, a)) for a in authors}
    best = max(counts.values()) if counts else 0
    tops = [a for a, n in counts.items() if n == best]
    if len(tops) == 1:
        trail = [t for h in g.hubs_with(g.author, tops[0]) for t in g.trail(h, g.author) if tops[0] in t]
        add(
            "who published the most papers?",
            f"{tops[0]} published the most papers: {best}.",
            trail,
            "superlative",
            "synonym",
        )
    for _ in range(n_each):  # comparisons
        a, b = rng.sample(papers, 2)
        ya, yb = g.of(a, "publication year"), g.of(b, "publication year")
        if not ya or not yb or ya[0] == yb[0]:
            continue
        trail = g.trail(a, "publication year") + g.trail(b, "publication year")
        word = "earlier" if ya[0] < yb[0] else "later"
        gold = f"'{g.title[a]}' ({ya[0]}) was published {word} than '{g.title[b]}' ({yb[0]})."
        add(
            f"compare '{g.title[a]}' and '{g.title[b]}' in terms of publication year",
            gold,
            trail,
            "comparative",
            "compare",
        )
        asked = "Yes" if word == "earlier" else "No"
        add(
            f"was '{g.title[a]}' published before '{g.title[b]}'?",
            f"{asked}, '{g.title[a]}' ({ya[0]}) was published {word} than '{g.title[b]}' ({yb[0]}).",
            trail,
            "comparative",
            "yes/no",
        )
    for p in some(papers, n_each):  # yes/no on a venue
        ve = g.of(p, "venue")
        if not ve:
            continue
        other = [v for v in venues if v != ve[0]]
        asked = rng.choice(other) if other and rng.random() < 0.5 else ve[0]
        yes = asked == ve[0]
        gold = f"{'Yes' if yes else 'No'}, '{g.title[p]}' was published at {ve[0]}."
        add(f"was '{g.title[p]}' published at {short(asked)}?", gold, g.trail(p, "venue"), "yes/no", "yes/no")
    for v in venues:  # ranking of a venue-year's papers
        for y in some(years, 1):
            hubs = [h for h in g.hubs_with("venue", v) if y in g.of(h, "publication year")]
            if 2 <= len(hubs) <= 15:
                listing = "; ".join(
                    f"'{g.title[h]}'" for h in sorted(hubs, key=lambda h: g.title[h].casefold(), reverse=True)
                )
                trail = [t for h in hubs for a in ("venue", "publication year") for t in g.trail(h, a)]
                add(
                    f"sort the {short(v)} {y} papers by title z to a",
                    f"The papers from {short(v)} in {y}, by title from z to a: {listing}.",
                    trail,
                    "ranking",
                    "z to a",
                )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--hub-type", default="Paper")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--per-kind", type=int, default=12)
    ap.add_argument("--seed", type=int, default=26)
    args = ap.parse_args()
    rows = build(Graph(args.db, args.hub_type), random.Random(args.seed), args.per_kind)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"{len(rows)} questions -> {args.out}")


if __name__ == "__main__":
    main()
