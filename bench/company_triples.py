"""A company graph written as triples in `kgqa load`'s CSV form (companies with a founding year, a
headquarters city, an industry, founders, a chief executive and products; people born in cities and
schooled at universities; some companies subsidiaries of others), indexed with companies as hubs and
asked in the words people use about companies, none of them in a test or another bench: "who founded X"
(where a `founded` predicate holds the year), "who runs X", "which companies are based in Y" (where
people are born in cities too), "where did the founders of X study", "which companies were founded by
people born in Y", ... Answers are computed from the rows.

    python bench/company_triples.py WORKDIR [--lower] [--seed 8]

Writes WORKDIR/graph.csv and WORKDIR/companies.kuzu (once; reused when there), then prints each
question whose structured result is not exactly the answer set and recall and precision of
`result.items` per form (offline mode, direct strategy, no topic given)."""

from __future__ import annotations

import csv
import os
import random
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from metaqa_style_questions import AskedGraph
from question_scoring import bench_arguments, score

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings

HEADER = "subject predicate object subject_label subject_types object_label object_types object_is_literal".split()
FIRST = "Apex Blue Cedar Delta Ember Falcon Granite Harbor Indigo Juniper Kite Lumen Meridian Nimbus Orbit".split()
FIRST += "Pioneer Quartz Summit Tidal Vertex".split()
SECOND = "Systems Labs Dynamics Works Foods Motors Energy Health Robotics Analytics".split()
GIVEN = "Ana Boris Chen Dara Elif Farid Greta Hiro Ines Jonas Kira Lars Maya Nils Omar Priya Ravi Sofia".split()
FAMILY = "Okafor Lindqvist Moreau Tanaka Haddad Novak Silva Brandt Kowal Reyes Ivanova Mensah Costa Weber".split()
CITIES = "Lagos Oslo Lyon Osaka Beirut Prague Lisbon Munich Krakow Seville Accra Porto".split()
UNIVERSITIES = ["Delft University", "ETH Zurich", "University of Tokyo", "Sorbonne", "MIT", "University of Ghana"]
INDUSTRIES = ["software", "food processing", "automotive", "renewable energy", "biotech", "logistics"]


def write_graph(path: Path, seed: int) -> None:
    """45 people, 30 companies (1-2 founders, a chief executive, 1-3 products), some subsidiaries."""
    rng = random.Random(seed)
    rows: list[list[str]] = []

    def add(s: str, p: str, o: str, sl: str, st: str, ol: str, ot: str, literal: bool = False) -> None:
        rows.append([s, p, o, sl, st, ol, ot, "true" if literal else "false"])

    people: dict[str, str] = {}
    while len(people) < 45:
        people.setdefault(f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}", f"P{len(people):03d}")
    for name, pid in people.items():
        city, school = rng.choice(CITIES), rng.choice(UNIVERSITIES)
        add(pid, "born in", f"C_{city}", name, "Person", city, "City")
        add(pid, "studied at", f"U_{school}", name, "Person", school, "University")
    names: set[str] = set()
    while len(names) < 30:
        names.add(f"{rng.choice(FIRST)} {rng.choice(SECOND)}")
    companies = sorted(names)
    ids = {c: f"K{i:03d}" for i, c in enumerate(companies)}
    everyone, products = sorted(people), set()
    for c in companies:
        k = ids[c]
        add(k, "founded", str(rng.randint(1975, 2020)), c, "Company", "", "", literal=True)
        city, industry = rng.choice(CITIES), rng.choice(INDUSTRIES)
        add(k, "headquartered in", f"C_{city}", c, "Company", city, "City")
        add(k, "industry", f"I_{industry}", c, "Company", industry, "Industry")
        for f in rng.sample(everyone, rng.randint(1, 2)):
            add(k, "founder", people[f], c, "Company", f, "Person")
        ceo = rng.choice(everyone)
        add(k, "chief executive officer", people[ceo], c, "Company", ceo, "Person")
        for _ in range(rng.randint(1, 3)):
            while True:
                product = f"{rng.choice(['Nova', 'Flux', 'Terra', 'Pulse', 'Echo', 'Zen'])}{rng.choice(['X', 'Pro', 'One', 'Max'])} {rng.randint(2, 9)}"
                if product not in products:
                    break
            products.add(product)
            add(k, "product", f"PR_{product.replace(' ', '_')}", c, "Company", product, "Product")
    for c in companies[10:]:
        if rng.random() < 0.4:
            parent = rng.choice(companies[:10])
            add(ids[c], "subsidiary of", ids[parent], c, "Company", parent, "Company")
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(HEADER)
        w.writerows(rows)


def questions(graph: Path, lower: bool, seed: int = 4) -> list[tuple[str, str, set[str]]]:
    """(form, question, answer labels) over sampled companies, founders, cities and products."""
    g = AskedGraph(str(graph), lower)
    out, inn, fw, bw, n, ask, found = g.out, g.inn, g.fw, g.bw, g.name, g.add, g.found
    rng = random.Random(seed)

    companies = sorted(s for s in out if out[s].get("industry"))
    for c in rng.sample(companies, 8):
        one = {c}
        ask("founded by", f"who founded {n(c)}", fw(one, "founder"))
        ask("ceo", f"who is the ceo of {n(c)}", fw(one, "chief executive officer"))
        ask("runs", f"who runs {n(c)}", fw(one, "chief executive officer"))
        ask("hq where", f"where is {n(c)} headquartered", fw(one, "headquartered in"))
        ask("founded when", f"when was {n(c)} founded", fw(one, "founded"))
        ask("industry", f"what industry is {n(c)} in", fw(one, "industry"))
        ask("products", f"what products does {n(c)} make", fw(one, "product"))
        ask(
            "same industry",
            f"which companies are in the same industry as {n(c)}",
            bw(fw(one, "industry"), "industry") - one,
        )
        ask("ceo born", f"where was the ceo of {n(c)} born", fw(fw(one, "chief executive officer"), "born in"))
        ask("founders studied", f"where did the founders of {n(c)} study", fw(fw(one, "founder"), "studied at"))
    founders = sorted(s for s in out if out[s].get("born in") and inn[s].get("founder"))
    for p in rng.sample(founders, 6):
        ask("companies founded by", f"which companies did {n(p)} found", bw({p}, "founder"))
        ask("born where", f"where was {n(p)} born", fw({p}, "born in"))
    for city in rng.sample(sorted({o for c in companies for o in out[c]["headquartered in"]}), 5):
        ask("based in", f"which companies are based in {n(city)}", bw({city}, "headquartered in"))
        ask(
            "founders born in",
            f"which companies were founded by people born in {n(city)}",
            bw(bw({city}, "born in"), "founder"),
        )
    for product in rng.sample(sorted({o for c in companies for o in out[c]["product"]}), 5):
        ask("who makes", f"which company makes {n(product)}", bw({product}, "product"))
    return found


def main() -> int:
    args = bench_arguments(__doc__, seed=8)
    work = Path(args.workdir)
    graph, db = work / "graph.csv", work / "companies.kuzu"
    if not db.exists():
        work.mkdir(parents=True, exist_ok=True)
        write_graph(graph, args.seed)
        with Workspace.init(Settings(db_path=db)) as ws:
            ws.load(graph)
            ws.build_index(IndexParams(hub_types=("Company",)))
    return score(db, questions(graph, args.lower))


if __name__ == "__main__":
    sys.exit(main())
