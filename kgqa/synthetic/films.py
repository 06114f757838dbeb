"""A seeded generator of film knowledge graphs (hub type Movie) with 1-, 2- and 3-hop questions whose
answers are known (`kgqa bench generate --domain films`).

Per movie: a director, one or two screenwriters, three or four cast members (shared Person entities,
some people direct, write and act), one or two genres, a release year, an original language and
keywords. Questions start from a movie or a person, follow a relation chain of one to three triples,
and are worded several ways each. Chains never step straight back to where they came from: "films that
share a director with X" are the director's other films, "co-stars of Y" are the other actors of Y's
films (the answer set leaves out the previous step's entities, and the topic itself)."""

from __future__ import annotations

import csv
import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kgqa.synthetic import film_vocabulary as F
from kgqa.synthetic.generator import (
    GRAPH_FILE,
    HEADER,
    QUESTION_COLUMNS,
    QUESTIONS_FILE,
    Node,
    check_sizes,
    write_questions,
)

TRIPLES_PER_MOVIE = 13
COLUMNS = (*QUESTION_COLUMNS[:-1], "answers", "form")  # the answers and each question's form
#: (predicate, direction) steps; +1 follows a triple from subject to object, -1 from object to subject.
Step = tuple[str, int]


@dataclass
class FilmReport:
    """What `generate_films` wrote."""

    graph_file: Path
    questions_file: Path
    triples: int = 0
    papers: int = 0  # movies (the field name is shared with the scholarly report)
    entities: int = 0
    questions: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)


class _Graph:
    """The generated triples, with indexes in both directions for computing answers."""

    def __init__(self) -> None:
        self.out: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.inn: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.nodes: dict[str, Node] = {}
        self.rows: list[tuple[Node, str, Node]] = []

    def add(self, s: Node, p: str, o: Node) -> None:
        oid = o.id or f"lit:{o.label}"
        self.nodes[s.id] = s
        self.nodes[oid] = o
        self.out[(s.id, p)].append(oid)
        self.inn[(oid, p)].append(s.id)
        self.rows.append((s, p, o))

    def step(self, ids: set[str], predicate: str, direction: int) -> dict[str, set[tuple[str, str]]]:
        """Each entity one step on: reached id -> the (subject id, object id) triples reaching it."""
        reached: dict[str, set[tuple[str, str]]] = defaultdict(set)
        index = self.out if direction > 0 else self.inn
        for a in ids:
            for b in index.get((a, predicate), ()):
                reached[b].add((a, b) if direction > 0 else (b, a))
        return reached

    def canonical(self, s: str, p: str, o: str) -> str:
        sn, on = self.nodes[s], self.nodes[o]
        obj = on.label if not on.id else f"{on.id}:{on.label}"
        return f"({sn.id}:{sn.label}, {p}, {obj})"


def follow(graph: _Graph, start: str, steps: list[Step]) -> tuple[set[str], set[str]]:
    """The chain's end entities from `start` (no step straight back, the topic left out) and the golden
    triples of the paths that reach them."""
    frontiers: list[set[str]] = [{start}]
    edges: list[dict[str, set[tuple[str, str]]]] = []
    for i, (predicate, direction) in enumerate(steps):
        reached = graph.step(frontiers[-1], predicate, direction)
        if i >= 1 and steps[i - 1][0] == predicate and steps[i - 1][1] == -direction:
            for gone in frontiers[-2]:
                reached.pop(gone, None)
        reached.pop(start, None)
        frontiers.append(set(reached))
        edges.append(reached)
    ends = frontiers[-1]
    gold: set[str] = set()
    keep = set(ends)
    for i in range(len(steps) - 1, -1, -1):
        predicate, direction = steps[i]
        prev: set[str] = set()
        for b in keep:
            for s, o in edges[i].get(b, ()):
                gold.add(graph.canonical(s, predicate, o))
                prev.add(s if direction > 0 else o)
        keep = prev
    return ends, gold


#: Question forms: kind -> (topic kind, steps, wordings). {t} is the topic's label.
FORMS: dict[str, tuple[str, list[Step], tuple[str, ...]]] = {
    "movie_director": (
        "movie",
        [(F.DIRECTOR, 1)],
        ("Who directed {t}?", "Who is the director of the film {t}?", "{t} was directed by whom?"),
    ),
    "movie_cast": (
        "movie",
        [(F.CAST, 1)],
        ("Who acted in {t}?", "Which actors appear in {t}?", "Who starred in the movie {t}?"),
    ),
    "movie_year": ("movie", [(F.YEAR, 1)], ("When was {t} released?", "In which year did {t} come out?")),
    "movie_genre": ("movie", [(F.GENRE, 1)], ("What genre is {t}?", "Which genres does {t} belong to?")),
    "movie_language": ("movie", [(F.LANGUAGE, 1)], ("What language is {t} in?", "In which language is {t}?")),
    "person_wrote": (
        "writer",
        [(F.SCREENWRITER, -1)],
        ("Which films did {t} write?", "What movies were written by {t}?", "{t} was the screenwriter of which film?"),
    ),
    "person_directed": ("director", [(F.DIRECTOR, -1)], ("Which movies did {t} direct?", "What did {t} direct?")),
    "person_acted": (
        "actor",
        [(F.CAST, -1)],
        ("In which films did {t} act?", "Which movies feature {t}?", "What films star {t}?"),
    ),
    "share_director": (
        "movie",
        [(F.DIRECTOR, 1), (F.DIRECTOR, -1)],
        (
            "Which films share a director with {t}?",
            "What other movies were made by the director of {t}?",
            "Which films have the same director as {t}?",
        ),
    ),
    "co_stars": (
        "actor",
        [(F.CAST, -1), (F.CAST, 1)],
        (
            "Who co-starred with {t}?",
            "Which actors appeared in films together with {t}?",
            "Who are the co-stars of {t}?",
        ),
    ),
    "co_writers": (
        "writer",
        [(F.SCREENWRITER, -1), (F.SCREENWRITER, 1)],
        ("Who wrote movies together with {t}?", "Who are the co-writers of {t}?"),
    ),
    "director_genres": (
        "director",
        [(F.DIRECTOR, -1), (F.GENRE, 1)],
        ("What genres are the films directed by {t}?", "Which genres do the movies of director {t} have?"),
    ),
    "writer_years": (
        "writer",
        [(F.SCREENWRITER, -1), (F.YEAR, 1)],
        ("In which years were the movies written by {t} released?", "When were the films scripted by {t} released?"),
    ),
    "writer_then_director": (
        "movie",
        [(F.SCREENWRITER, 1), (F.SCREENWRITER, -1), (F.DIRECTOR, 1)],
        (
            "Who directed the other films written by the screenwriter of {t}?",
            "Who are the directors of the other movies by the writers of {t}?",
        ),
    ),
    "costars_of_cast": (
        "movie",
        [(F.CAST, 1), (F.CAST, -1), (F.CAST, 1)],
        ("Who are the co-stars of the actors of {t}?", "Which actors played together with the cast of {t}?"),
    ),
    "director_films_languages": (
        "movie",
        [(F.DIRECTOR, 1), (F.DIRECTOR, -1), (F.LANGUAGE, 1)],
        (
            "In which languages are the other films by the director of {t}?",
            "What languages do the movies that share a director with {t} use?",
        ),
    ),
}


def generate_films(out_dir: str | Path, triples: int, seed: int = 0, questions: int = 100) -> FilmReport:
    """Write `graph.csv` (about `triples` triples) and `questions.csv` (golden triples, answer labels,
    hop count and question form per question) into `out_dir`."""
    check_sizes(triples, questions)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    movies = max(4, triples // TRIPLES_PER_MOVIE)
    graph, roles = _build(rng, movies, triples)
    report = FilmReport(out / GRAPH_FILE, out / QUESTIONS_FILE)
    with report.graph_file.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(HEADER)
        for s, p, o in graph.rows:
            literal = not o.id
            w.writerow(
                (
                    s.id,
                    p,
                    o.label if literal else o.id,
                    s.label,
                    s.types,
                    "" if literal else o.label,
                    o.types,
                    str(literal).lower(),
                )
            )
    report.triples = len(graph.rows)
    report.papers = len(roles["movie"])
    report.entities = sum(1 for k, n in graph.nodes.items() if n.id)
    rows = list(_questions(graph, roles, random.Random(seed + 1), questions))
    report.questions = write_questions(report.questions_file, COLUMNS, rows, report.by_kind)
    return report


def _names(rng: random.Random, n: int) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        name = f"{rng.choice(F.FIRST_NAMES)} {rng.choice(F.LAST_NAMES)}"
        if name in seen:
            name = f"{rng.choice(F.FIRST_NAMES)} {rng.choice(F.FIRST_NAMES)[0]}. {rng.choice(F.LAST_NAMES)}"
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out


def _build(rng: random.Random, movies: int, triples: int) -> tuple[_Graph, dict[str, list[str]]]:
    people = [Node(f"N{i + 1:05d}", name, "Person") for i, name in enumerate(_names(rng, max(20, movies)))]
    genres = [Node(f"G{i + 1:02d}", g, "Genre") for i, g in enumerate(F.GENRES)]
    languages = [Node(f"L{i + 1:02d}", lang, "Language") for i, lang in enumerate(F.LANGUAGES)]
    n = len(people)
    directors, writers = people[: max(4, n // 3)], people[n // 5 : n // 5 + max(5, n // 2)]
    actors = people[n // 4 :]
    graph = _Graph()
    titles: set[str] = set()
    roles: dict[str, list[str]] = defaultdict(list)
    index = 0
    while len(graph.rows) < triples and index < 10 * movies:
        index += 1
        title = _title(rng, titles)
        m = Node(f"M{index:05d}", title, "Movie")
        roles["movie"].append(m.id)
        d = directors[min(len(directors) - 1, int(len(directors) * rng.random() ** 1.5))]
        graph.add(m, F.DIRECTOR, d)
        roles["director"].append(d.id)
        for w in rng.sample(writers, rng.choice((1, 1, 2))):
            graph.add(m, F.SCREENWRITER, w)
            roles["writer"].append(w.id)
        for a in rng.sample(actors, rng.choice((3, 4))):
            graph.add(m, F.CAST, a)
            roles["actor"].append(a.id)
        for g in rng.sample(genres, rng.choice((1, 2))):
            graph.add(m, F.GENRE, g)
        graph.add(m, F.YEAR, Node("", str(rng.randint(1950, 2023)), ""))
        graph.add(m, F.LANGUAGE, rng.choice(languages))
        for t in rng.sample(F.TAGS, rng.choice((1, 2, 3))):
            graph.add(m, F.TAG, Node("", t, ""))
    return graph, {k: sorted(set(v)) for k, v in roles.items()}


def _title(rng: random.Random, titles: set[str]) -> str:
    for attempt in range(100):
        base = f"{rng.choice(F.TITLE_FIRST)} {rng.choice(F.TITLE_SECOND)}"
        t = base + rng.choice(F.TITLE_SUFFIXES) if attempt < 20 else f"The {base} of {rng.choice(F.TITLE_SECOND)}"
        if t not in titles:
            titles.add(t)
            return t
    t = f"{rng.choice(F.TITLE_FIRST)} {rng.choice(F.TITLE_SECOND)} {len(titles)}"
    titles.add(t)
    return t


def _questions(graph: _Graph, roles: dict[str, list[str]], rng: random.Random, n: int) -> Iterator[tuple[str, ...]]:
    """`n` questions cycling through the forms and their wordings; a question whose chain ends nowhere
    (or in more than 40 entities) is drawn again from another topic."""
    kinds = list(FORMS)
    count = 0
    attempts = 0
    while count < n and attempts < 50 * max(n, 1):
        attempts += 1
        kind = kinds[count % len(kinds)]
        topic_kind, steps, wordings = FORMS[kind]
        topic = rng.choice(roles[topic_kind])
        ends, gold = follow(graph, topic, steps)
        if not ends or len(ends) > 40:
            continue
        count += 1
        wording = wordings[(count // len(kinds)) % len(wordings)]
        label = graph.nodes[topic].label
        answers = sorted(graph.nodes[e].label for e in ends)
        yield (
            f"f{count:04d}",
            wording.format(t=label),
            repr(sorted(gold)),
            topic,
            kind,
            str(len(steps)),
            repr(answers),
            f"{kind}/{wordings.index(wording) + 1}",
        )
