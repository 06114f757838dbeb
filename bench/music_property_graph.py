"""A music graph made the way a data engineer would (own node and rel tables, no HubLink loader), indexed
in place with albums as hubs and asked in music wordings that no test or other bench uses: "where is X
from", "which artists come from Y", "who collaborated with X", "what albums has X released" (the graph's
"released on" leads from albums to labels), "the same city as X", "when did X come out", counts, years.
Answers are computed with Cypher on the user's tables.

    python bench/music_property_graph.py WORKDIR [--lower] [--seed 5]

Writes WORKDIR/music.kuzu (once; reused when it is there), then prints each question whose structured
result is not exactly the answer set, and recall and precision of `result.items` per form (offline
mode, direct strategy, no topic given)."""

from __future__ import annotations

import os
import random
import sys
from collections import defaultdict
from pathlib import Path

import kuzu

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from question_scoring import bench_arguments, score

from kgqa.api import Workspace
from kgqa.config import IndexParams, Settings

FIRST = "Nova Echo Velvet Iron Crimson Silver Paper Hollow Neon Lunar Static Golden Broken Quiet Wild".split()
SECOND = "Wolves Harbor Saints Engines Ghosts Orchard Tides Lanterns Foxes Signals Comets Rivers".split()
WORDS = (
    "Midnight Glass Summer Electric Northern Distant Velvet Frozen Hidden Burning Silent Ocean Desert Dream City "
    "Fire Light Heart Road Garden"
).split()
LABELS = ["Blue Owl Records", "Sundial Music", "Kestrel Sound", "Harborline", "Moth & Flame"]
CITIES = ["Glasgow", "Portland", "Reykjavik", "Melbourne", "Montreal", "Bristol", "Austin"]
GENRES = ["indie rock", "synth pop", "shoegaze", "folk", "post-punk", "dream pop", "electronic"]


def make(path: Path, seed: int) -> None:
    """40 artists (a city and a year formed each), 1-4 albums each (a year, a label, 1-2 genres; about
    one in seven recorded with a second artist)."""
    rng = random.Random(seed)
    conn = kuzu.Connection(kuzu.Database(str(path)))
    conn.execute("CREATE NODE TABLE Artist(id STRING PRIMARY KEY, name STRING, formed INT64)")
    conn.execute("CREATE NODE TABLE Album(id STRING PRIMARY KEY, title STRING, year INT64)")
    for table in ("Label", "City", "Genre"):
        conn.execute(f"CREATE NODE TABLE {table}(id STRING PRIMARY KEY, name STRING)")
    conn.execute("CREATE REL TABLE RECORDED(FROM Artist TO Album)")
    conn.execute("CREATE REL TABLE RELEASED_ON(FROM Album TO Label)")
    conn.execute("CREATE REL TABLE HAS_GENRE(FROM Album TO Genre)")
    conn.execute("CREATE REL TABLE COMES_FROM(FROM Artist TO City)")
    for table, prefix, names in (("Label", "L", LABELS), ("City", "C", CITIES), ("Genre", "G", GENRES)):
        for i, name in enumerate(names):
            conn.execute(f"CREATE (:{table} {{id: $i, name: $n}})", {"i": f"{prefix}{i}", "n": name})
    artists: set[str] = set()
    while len(artists) < 40:
        artists.add(f"{rng.choice(FIRST)} {rng.choice(SECOND)}")
    names = sorted(artists)
    for a, name in enumerate(names):
        conn.execute(
            "CREATE (:Artist {id: $i, name: $n, formed: $f})", {"i": f"A{a}", "n": name, "f": rng.randint(1985, 2015)}
        )
        conn.execute(
            "MATCH (x:Artist {id: $a}), (y:City {id: $c}) CREATE (x)-[:COMES_FROM]->(y)",
            {"a": f"A{a}", "c": f"C{rng.randrange(len(CITIES))}"},
        )
    titles: set[str] = set()
    album = 0
    for a in range(len(names)):
        for _ in range(rng.randint(1, 4)):
            while True:
                first, second = rng.choice(WORDS), rng.choice(WORDS)
                if first != second and f"{first} {second}" not in titles:
                    break
            titles.add(f"{first} {second}")
            b = f"B{album}"
            conn.execute(
                "CREATE (:Album {id: $i, title: $t, year: $y})",
                {"i": b, "t": f"{first} {second}", "y": rng.randint(1990, 2023)},
            )
            recorded = {a} | ({rng.randrange(len(names))} if rng.random() < 0.15 else set())
            for who in sorted(recorded):
                conn.execute(
                    "MATCH (x:Artist {id: $a}), (y:Album {id: $b}) CREATE (x)-[:RECORDED]->(y)",
                    {"a": f"A{who}", "b": b},
                )
            conn.execute(
                "MATCH (x:Album {id: $b}), (y:Label {id: $l}) CREATE (x)-[:RELEASED_ON]->(y)",
                {"b": b, "l": f"L{rng.randrange(len(LABELS))}"},
            )
            for g in rng.sample(range(len(GENRES)), rng.randint(1, 2)):
                conn.execute(
                    "MATCH (x:Album {id: $b}), (y:Genre {id: $g}) CREATE (x)-[:HAS_GENRE]->(y)", {"b": b, "g": f"G{g}"}
                )
            album += 1


def _rows(conn: kuzu.Connection, query: str) -> list[tuple]:
    result = conn.execute(query)
    out = []
    while result.has_next():  # type: ignore[union-attr]
        out.append(tuple(result.get_next()))  # type: ignore[union-attr]
    return out


def questions(path: Path, lower: bool, seed: int = 3) -> list[tuple[str, str, set[str]]]:
    """(form, question, answers) with answers from the user's own tables."""
    db = kuzu.Database(str(path), read_only=True)
    conn = kuzu.Connection(db)
    rec: dict[str, set[str]] = defaultdict(set)
    by: dict[str, set[str]] = defaultdict(set)
    for a, b in _rows(conn, "MATCH (a:Artist)-[:RECORDED]->(b:Album) RETURN a.name, b.title"):
        rec[a].add(b)
        by[b].add(a)
    label = dict(_rows(conn, "MATCH (b:Album)-[:RELEASED_ON]->(l:Label) RETURN b.title, l.name"))
    genre: dict[str, set[str]] = defaultdict(set)
    for b, g in _rows(conn, "MATCH (b:Album)-[:HAS_GENRE]->(g:Genre) RETURN b.title, g.name"):
        genre[b].add(g)
    year = dict(_rows(conn, "MATCH (b:Album) RETURN b.title, b.year"))
    city = dict(_rows(conn, "MATCH (a:Artist)-[:COMES_FROM]->(x:City) RETURN a.name, x.name"))
    formed = dict(_rows(conn, "MATCH (a:Artist) RETURN a.name, a.formed"))
    conn.close()
    db.close()
    rng = random.Random(seed)
    artists, albums = sorted(rec), sorted(by)
    out: list[tuple[str, str, set[str]]] = []

    def n(s: str) -> str:
        return s.lower() if lower else s

    def add(form: str, text: str, answers: set) -> None:
        if answers and len(answers) <= 12:
            out.append((form, text, {str(x) for x in answers}))

    for a in rng.sample(artists, 8):
        add("albums recorded", f"which albums did {n(a)} record", rec[a])
        add("albums released", f"what albums has {n(a)} released", rec[a])
        add("artist city", f"where is {n(a)} from", {city[a]})
        add("artist genres", f"what genres does {n(a)} play", {g for b in rec[a] for g in genre[b]})
        add("artist labels", f"which labels has {n(a)} released albums on", {label[b] for b in rec[a]})
        add(
            "same city",
            f"which artists are from the same city as {n(a)}",
            {x for x in artists if city[x] == city[a]} - {a},
        )
        add("count albums", f"how many albums did {n(a)} record", {len(rec[a])})
        add("formed", f"when was {n(a)} formed", {formed[a]})
        add("collaborated", f"who collaborated with {n(a)}", {x for b in rec[a] for x in by[b]} - {a})
    for b in rng.sample(albums, 8):
        add("who recorded", f"who recorded {n(b)}", by[b])
        add("label of album", f"what label released {n(b)}", {label[b]})
        add("album genre", f"what genre is {n(b)}", genre[b])
        add("album year", f"when did {n(b)} come out", {year[b]})
        add("album artist city", f"where is the artist of {n(b)} from", {city[x] for x in by[b]})
    for x in sorted(set(city.values())):
        add("artists from city", f"which artists come from {n(x)}", {a for a in artists if city[a] == x})
    for x in sorted(set(label.values())):
        add(
            "artists on label",
            f"which artists released albums on {n(x)}",
            {a for b in albums if label[b] == x for a in by[b]},
        )
    for y in rng.sample(sorted(set(year.values())), 5):
        add("albums in year", f"which albums came out in {y}", {b for b in albums if year[b] == y})
    return out


def main() -> int:
    args = bench_arguments(__doc__, seed=5)
    path = Path(args.workdir) / "music.kuzu"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        make(path, args.seed)
        with Workspace(Settings(db_path=path)) as ws:
            ws.build_index(IndexParams(hub_types=("Album",)))
    return score(path, questions(path, args.lower))


if __name__ == "__main__":
    sys.exit(main())
