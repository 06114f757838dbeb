"""A user's own music graph (albums as hubs, artists pointing at their albums, the artists' cities one hop
further), asked the way people ask about music: "where is X from", "which artists are from Y", "who
collaborated with X", "what albums has X released" where the graph's "released on" names a label, "the
same city as X", "when did X come out". Answers are checked against the graph's own Cypher."""

from __future__ import annotations

from pathlib import Path

import kuzu
import pytest
from test_own_graph_named_by_keys import indexed_in_place, result_items

from kgqa.api import Workspace

ARTISTS = {"Iron Tides": "Melbourne", "Velvet Rivers": "Bristol", "Static Foxes": "Melbourne"}
ARTISTS |= {"Nova Wolves": "Austin", "Echo Signals": "Austin", "Lunar Ghosts": "Austin"}
ALBUMS = {
    "Summer Silent": (2001, "Kestrel Sound", ["Iron Tides", "Static Foxes"]),
    "Road Light": (2004, "Harborline", ["Iron Tides"]),
    "Glass Northern": (1999, "Kestrel Sound", ["Velvet Rivers"]),
    "Dream Ocean": (2010, "Sundial Music", ["Velvet Rivers", "Nova Wolves"]),
    "Fire Garden": (2015, "Harborline", ["Nova Wolves"]),
    "Hidden Desert": (2008, "Sundial Music", ["Echo Signals"]),
    "Frozen City": (2019, "Kestrel Sound", ["Lunar Ghosts"]),
    "Midnight Road": (2021, "Harborline", ["Static Foxes"]),
}


def make_music(path: Path) -> None:
    """The user's tables: ids as keys, a name or title property, no HubLink loader."""
    conn = kuzu.Connection(kuzu.Database(str(path)))
    conn.execute("CREATE NODE TABLE Artist(id STRING PRIMARY KEY, name STRING)")
    conn.execute("CREATE NODE TABLE Album(id STRING PRIMARY KEY, title STRING, year INT64)")
    conn.execute("CREATE NODE TABLE City(id STRING PRIMARY KEY, name STRING)")
    conn.execute("CREATE NODE TABLE Label(id STRING PRIMARY KEY, name STRING)")
    conn.execute("CREATE REL TABLE RECORDED(FROM Artist TO Album)")
    conn.execute("CREATE REL TABLE COMES_FROM(FROM Artist TO City)")
    conn.execute("CREATE REL TABLE RELEASED_ON(FROM Album TO Label)")
    for i, city in enumerate(sorted(set(ARTISTS.values()))):
        conn.execute("CREATE (:City {id: $i, name: $n})", {"i": f"c{i}", "n": city})
    for i, label in enumerate(sorted({label for _, label, _ in ALBUMS.values()})):
        conn.execute("CREATE (:Label {id: $i, name: $n})", {"i": f"l{i}", "n": label})
    for i, (artist, city) in enumerate(ARTISTS.items()):
        conn.execute("CREATE (:Artist {id: $i, name: $n})", {"i": f"a{i}", "n": artist})
        conn.execute(
            "MATCH (a:Artist {name: $a}), (c:City {name: $c}) CREATE (a)-[:COMES_FROM]->(c)", {"a": artist, "c": city}
        )
    for i, (title, (year, label, artists)) in enumerate(ALBUMS.items()):
        conn.execute("CREATE (:Album {id: $i, title: $t, year: $y})", {"i": f"b{i}", "t": title, "y": year})
        conn.execute(
            "MATCH (b:Album {title: $t}), (l:Label {name: $l}) CREATE (b)-[:RELEASED_ON]->(l)", {"t": title, "l": label}
        )
        for artist in artists:
            conn.execute(
                "MATCH (a:Artist {name: $a}), (b:Album {title: $t}) CREATE (a)-[:RECORDED]->(b)",
                {"a": artist, "t": title},
            )


@pytest.fixture(scope="module")
def music(tmp_path_factory, embedder):
    path = tmp_path_factory.mktemp("music") / "music.kuzu"
    make_music(path)
    yield from indexed_in_place(path, "Album", embedder)


def _cypher(ws: Workspace, query: str, params: dict) -> list[str]:
    """The answer as the user's own Cypher states it."""
    _columns, rows = ws.store.query(query, params)
    return sorted(str(r[0]) for r in rows)


CITY_OF = "MATCH (a:Artist {name: $x})-[:COMES_FROM]->(c:City) RETURN c.name"
FROM_CITY = "MATCH (a:Artist)-[:COMES_FROM]->(c:City {name: $x}) RETURN a.name"
SAME_CITY = "MATCH (x:Artist {name: $x})-[:COMES_FROM]->(:City)<-[:COMES_FROM]-(a:Artist) WHERE a <> x RETURN a.name"
ALBUMS_OF = "MATCH (a:Artist {name: $x})-[:RECORDED]->(b:Album) RETURN b.title"
PARTNERS = (
    "MATCH (x:Artist {name: $x})-[:RECORDED]->(:Album)<-[:RECORDED]-(a:Artist) WHERE a <> x RETURN DISTINCT a.name"
)
LABELS_OF = "MATCH (a:Artist {name: $x})-[:RECORDED]->(:Album)-[:RELEASED_ON]->(l:Label) RETURN DISTINCT l.name"
YEAR_OF = "MATCH (b:Album {title: $x}) RETURN b.year"
LABEL_OF = "MATCH (b:Album {title: $x})-[:RELEASED_ON]->(l:Label) RETURN l.name"
ARTIST_CITY = "MATCH (b:Album {title: $x})<-[:RECORDED]-(:Artist)-[:COMES_FROM]->(c:City) RETURN DISTINCT c.name"


@pytest.mark.parametrize(
    "question, query, x",
    [
        ("where is Iron Tides from", CITY_OF, "Iron Tides"),
        ("where does velvet rivers come from", CITY_OF, "Velvet Rivers"),
        ("which artists are from Austin", FROM_CITY, "Austin"),
        ("which artists come from melbourne", FROM_CITY, "Melbourne"),
        ("which artists come from the same city as nova wolves", SAME_CITY, "Nova Wolves"),
        ("what albums has Iron Tides released", ALBUMS_OF, "Iron Tides"),
        ("which labels has static foxes released albums on", LABELS_OF, "Static Foxes"),
        ("who collaborated with Velvet Rivers", PARTNERS, "Velvet Rivers"),
        ("when did Hidden Desert come out", YEAR_OF, "Hidden Desert"),
        ("where is the artist of Glass Northern from", ARTIST_CITY, "Glass Northern"),
        # typed as people type: a bare noun phrase, a closing "with", a compound noun
        ("iron tides albums", ALBUMS_OF, "Iron Tides"),
        ("who did velvet rivers collaborate with", PARTNERS, "Velvet Rivers"),
        ("which record label is glass northern on", LABEL_OF, "Glass Northern"),
    ],
)
def test_music_questions_answer_what_the_graph_states(music, question, query, x):
    assert result_items(music, question) == _cypher(music, query, {"x": x})
