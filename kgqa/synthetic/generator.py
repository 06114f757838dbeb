"""A seeded generator of scholarly-style knowledge graphs of a requested size, with questions
whose golden triples are known (kgqa bench generate).

Shape, per paper (the hub roots, type Paper), about 20 triples:
- paper -> venue (shared Venue -> publisher), publication year, doi, research field, keywords;
- paper -> author (shared Author -> affiliation -> shared Organisation -> country), 2-5 of them;
- paper -> contribution -> addresses problem / evaluation method (shared) / uses dataset /
  reports result -> (metric, value, measured on -> shared Benchmark -> domain).
Paths from a paper are 1 to 4 triples long. A shared entity's own triples are written once, when it
is first used. The graph and its questions depend only on (triples, seed)."""

from __future__ import annotations

import csv
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kgqa.answering.words import number_words
from kgqa.errors import ConfigError
from kgqa.graph.loaders.delimited import COLUMNS
from kgqa.synthetic import vocabulary as V

GRAPH_FILE = "graph.csv"
QUESTIONS_FILE = "questions.csv"
HEADER = COLUMNS  # the columns the CSV loader reads (kgqa/graph/loaders/delimited.py)
#: The evaluation format's columns (kgqa/evaluation/dataset.py).
QUESTION_COLUMNS = (
    "uid",
    "question",
    "golden_triples",
    "topic_entity_id",
    "retrieval_operation",
    "hops",
    "golden_answer",
)
#: Mean triples per paper (shared entities' triples included), to size the shared pools.
TRIPLES_PER_PAPER = 21
MIN_TRIPLES = 100
MAX_TRIPLES = 20_000_000


@dataclass(frozen=True)
class Node:
    """An entity of the generated graph."""

    id: str
    label: str
    types: str


@dataclass
class _Paper:
    node: Node
    year: str
    venue: Node
    authors: list[Node]
    contributions: list[tuple[Node, Node, Node, Node]]  # contribution, method, result, benchmark


@dataclass
class GenerationReport:
    """What `generate` wrote."""

    graph_file: Path
    questions_file: Path
    triples: int = 0
    papers: int = 0
    entities: int = 0
    questions: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)


def _lit(value: str) -> Node:
    return Node("", value, "")


class _Pools:
    """The shared entities, sized from the requested graph size."""

    def __init__(self, rng: random.Random, papers: int) -> None:
        self.rng = rng
        self.authors = self._names(max(30, papers // 2))
        self.orgs = [
            f"{k} {c}" if not k.startswith("Institute") and not k.startswith("Research") else f"{c} {k}"
            for c in V.CITIES
            for k in V.ORG_KINDS
        ]
        rng.shuffle(self.orgs)
        self.orgs = self.orgs[: max(8, min(len(self.orgs), papers // 40))]
        self.venues = [f"{k} {t}" for k in V.VENUE_KINDS for t in V.VENUE_TOPICS]
        rng.shuffle(self.venues)
        self.venues = self.venues[: max(5, min(len(self.venues), papers // 60))]
        n_bench = max(6, papers // 50)
        self.benchmarks = [f"{rng.choice(V.OBJECTS)} {rng.choice(V.TECHNIQUES)} Suite {k + 1}" for k in range(n_bench)]
        n_prob = max(10, papers // 8)
        self.problems = [
            f"{rng.choice(V.TECHNIQUES).lower()} for {rng.choice(V.OBJECTS).lower()}"
            f"{'' if k < 200 else f' ({k // 200})'}"
            for k in range(n_prob)
        ]
        self.problems = list(dict.fromkeys(self.problems))
        self.author_org = [rng.randrange(len(self.orgs)) for _ in self.authors]

    def _names(self, n: int) -> list[str]:
        seen: set[str] = set()
        out: list[str] = []
        while len(out) < n:
            name = f"{self.rng.choice(V.FIRST_NAMES)} {self.rng.choice(V.LAST_NAMES)}"
            if name in seen:
                name = (
                    f"{self.rng.choice(V.FIRST_NAMES)} {self.rng.choice(V.INITIALS)}. {self.rng.choice(V.LAST_NAMES)}"
                )
            if name in seen:
                continue
            seen.add(name)
            out.append(name)
        return out

    def skewed(self, n: int) -> int:
        """An index in [0, n) favouring low indices (a few prolific authors, popular venues)."""
        return min(n - 1, int(n * self.rng.random() ** 1.8))


class _Writer:
    """Writes triples to the CSV, counting them, and emits each shared entity's triples once."""

    def __init__(self, fh) -> None:
        self.out = csv.writer(fh, lineterminator="\n")
        self.out.writerow(HEADER)
        self.triples = 0
        self.entities: set[str] = set()

    def add(self, s: Node, p: str, o: Node) -> None:
        literal = not o.id
        self.out.writerow(
            (
                s.id,
                p,
                o.label if literal else o.id,
                s.label,
                s.types,
                "" if literal else o.label,
                o.types,
                "true" if literal else "false",
            )
        )
        self.triples += 1
        self.entities.add(s.id)
        if not literal:
            self.entities.add(o.id)

    def first_use(self, node: Node) -> bool:
        return node.id not in self.entities


def generate(out_dir: str | Path, triples: int, seed: int = 0, questions: int = 100) -> GenerationReport:
    """Write `graph.csv` (about `triples` triples, the loader's CSV format) and `questions.csv`
    (the evaluation format, golden triples known) into `out_dir`."""
    check_sizes(triples, questions)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    pools = _Pools(rng, max(1, triples // TRIPLES_PER_PAPER))
    report = GenerationReport(out / GRAPH_FILE, out / QUESTIONS_FILE)
    sampled: list[_Paper] = []
    n_sample = max(questions * 2, 1)
    author_papers: dict[str, list[Node]] = {}
    years: dict[str, str] = {}  # paper id -> publication year (golden answers of counts, rankings, groups)
    with report.graph_file.open("w", encoding="utf-8", newline="") as fh:
        w = _Writer(fh)
        titles: set[str] = set()
        index = 0
        while w.triples < triples:
            index += 1
            paper = _write_paper(w, pools, rng, index, titles)
            years[paper.node.id] = paper.year
            for a in paper.authors:
                author_papers.setdefault(a.id, []).append(paper.node)
            # reservoir sample of papers to ask about (uniform over the whole graph)
            if len(sampled) < n_sample:
                sampled.append(paper)
            else:
                j = rng.randrange(index)
                if j < n_sample:
                    sampled[j] = paper
        report.triples, report.papers, report.entities = w.triples, index, len(w.entities)
    rows = list(_questions(sampled, author_papers, pools, random.Random(seed + 1), questions, years))
    report.questions = write_questions(report.questions_file, QUESTION_COLUMNS, rows, report.by_kind)
    return report


def check_sizes(triples: int, questions: int) -> None:
    """Refuse a graph size outside the generator's range or a negative question count."""
    if not MIN_TRIPLES <= triples <= MAX_TRIPLES:
        raise ConfigError(f"--triples must be between {MIN_TRIPLES} and {MAX_TRIPLES}, got {triples}")
    if questions < 0:
        raise ConfigError(f"--questions must be >= 0, got {questions}")


def write_questions(path: Path, columns: tuple[str, ...], rows: list[tuple], by_kind: dict[str, int]) -> int:
    """Write the question rows (their fifth column is the kind, counted into `by_kind`); the row count."""
    with path.open("w", encoding="utf-8", newline="") as fh:
        qw = csv.writer(fh, lineterminator="\n")
        qw.writerow(columns)
        for row in rows:
            qw.writerow(row)
            by_kind[row[4]] = by_kind.get(row[4], 0) + 1
    return len(rows)


def _title(rng: random.Random, titles: set[str]) -> str:
    for attempt in range(50):
        t = f"{rng.choice(V.ADJECTIVES)} {rng.choice(V.TECHNIQUES)} for {rng.choice(V.OBJECTS)} in {rng.choice(V.SETTINGS)}"
        if attempt >= 10:
            t = f"{t}: {rng.choice(V.METHODS)} with {rng.choice(V.ADJECTIVES).lower()} {rng.choice(V.TECHNIQUES).lower()}"
        if t not in titles:
            titles.add(t)
            return t
    t = f"{t} (part {len(titles)})"
    titles.add(t)
    return t


def _write_paper(w: _Writer, pools: _Pools, rng: random.Random, index: int, titles: set[str]) -> _Paper:
    paper = Node(f"P{index:07d}", _title(rng, titles), "Paper")
    year = str(rng.randint(2005, 2025))
    vi = pools.skewed(len(pools.venues))
    venue = Node(f"V{vi:04d}", pools.venues[vi], "Venue")
    if w.first_use(venue):
        w.add(venue, "publisher", _lit(V.PUBLISHERS[vi % len(V.PUBLISHERS)]))
    w.add(paper, "venue", venue)
    w.add(paper, "publication year", _lit(year))
    w.add(paper, "doi", _lit(f"10.5555/syn.{year}.{index}"))
    authors = []
    for ai in sorted({pools.skewed(len(pools.authors)) for _ in range(rng.randint(2, 5))}):
        author = Node(f"A{ai:06d}", pools.authors[ai], "Author|Person")
        if w.first_use(author):
            oi = pools.author_org[ai]
            org = Node(f"O{oi:04d}", pools.orgs[oi], "Organisation")
            if w.first_use(org):
                city = pools.orgs[oi].replace("University of ", "").replace("Polytechnic of ", "").split(" ")[0]
                w.add(org, "country", _lit(V.COUNTRIES.get(city, "Germany")))
            w.add(author, "affiliation", org)
        w.add(paper, "author", author)
        authors.append(author)
    fi = rng.randrange(len(V.FIELDS))
    w.add(paper, "research field", Node(f"F{fi:02d}", V.FIELDS[fi], "ResearchField"))
    for kw in sorted(set(rng.sample(V.KEYWORDS, rng.randint(1, 2)))):
        w.add(paper, "keyword", _lit(kw))
    contributions = []
    for k in range(1, rng.choice((1, 1, 2)) + 1):
        contribution = Node(f"C{index:07d}-{k}", f"Contribution {k}", "Contribution")
        w.add(paper, "contribution", contribution)
        pi = pools.skewed(len(pools.problems))
        w.add(contribution, "addresses problem", Node(f"RP{pi:05d}", pools.problems[pi], "ResearchProblem"))
        mi = rng.randrange(len(V.METHODS))
        method = Node(f"M{mi:02d}", V.METHODS[mi], "Method")
        w.add(contribution, "evaluation method", method)
        w.add(contribution, "uses dataset", _lit(f"{rng.randint(3, 400)} {rng.choice(V.DOMAINS)} projects"))
        result = Node(f"R{index:07d}-{k}", f"Result {k}", "Result")
        w.add(contribution, "reports result", result)
        w.add(result, "metric", _lit(rng.choice(V.METRICS)))
        w.add(result, "value", _lit(f"{rng.uniform(0.05, 0.99):.2f}"))
        bi = pools.skewed(len(pools.benchmarks))
        bench = Node(f"B{bi:04d}", pools.benchmarks[bi], "Benchmark")
        if w.first_use(bench):
            w.add(bench, "domain", _lit(V.DOMAINS[bi % len(V.DOMAINS)]))
        w.add(result, "measured on", bench)
        contributions.append((contribution, method, result, bench))
    return _Paper(paper, year, venue, authors, contributions)


def _t(s: Node, p: str, o: Node) -> str:
    """The canonical triple string (as the evaluation compares them)."""
    obj = o.label if not o.id else f"{o.id}:{o.label}"
    return f"({s.id}:{s.label}, {p}, {obj})"


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _author_questions(kind: str, a: Node, papers: list[Node], years: dict[str, str]) -> tuple[str, list[str], str]:
    """Counting, ranking and grouping questions about one author's papers: (question, golden, answer)."""
    gold = [_t(pp, "author", a) for pp in papers]
    if kind == "counting":
        n = len(papers)
        return (
            f"How many papers did {a.label} publish?",
            gold,
            f"{a.label} published {number_words(n)} paper{'s' if n != 1 else ''} ({n}).",
        )
    gold += [_t(pp, "publication year", _lit(years[pp.id])) for pp in papers]
    if kind == "ranking":
        ranked = sorted(papers, key=lambda pp: (-int(years[pp.id]), pp.label))
        listing = _listing([f"{k}. {pp.label} ({years[pp.id]})" for k, pp in enumerate(ranked, start=1)])
        return (
            f"Which papers did {a.label} publish? Rank them in descending order of their publication year.",
            gold,
            f"The papers that {a.label} published, ranked in descending order of their publication "
            f"year, are: {listing}.",
        )
    per_year: dict[str, int] = {}
    for pp in papers:
        per_year[years[pp.id]] = per_year.get(years[pp.id], 0) + 1
    listing = _listing([f"{number_words(c)} paper{'s' if c != 1 else ''} in {y}" for y, c in sorted(per_year.items())])
    return f"How many papers did {a.label} publish per publication year?", gold, f"{a.label} published {listing}."


def _questions(
    papers: list[_Paper],
    author_papers: dict[str, list[Node]],
    pools: _Pools,
    rng: random.Random,
    n: int,
    years: dict[str, str] | None = None,
) -> Iterator[tuple[str, ...]]:
    """Known-answer questions about the sampled papers, cycling through ten kinds (the last three,
    counting, ranking and grouping, carry golden answers)."""
    kinds = (
        "authors",
        "year",
        "venue",
        "method",
        "affiliation",
        "benchmark_domain",
        "author_papers",
        "counting",
        "ranking",
        "grouping",
    )
    years = years or {}
    papers = sorted(papers, key=lambda p: p.node.id)
    rng.shuffle(papers)
    for i in range(min(n, len(papers))):
        p, kind = papers[i], kinds[i % len(kinds)]
        title = p.node.label
        answer = ""
        if kind in ("counting", "ranking", "grouping"):
            a = max(
                p.authors, key=lambda x: (2 <= len(author_papers[x.id]) <= 6, min(len(author_papers[x.id]), 6), x.id)
            )  # a few papers each
            q, gold, answer = _author_questions(kind, a, author_papers[a.id], years)
            yield (f"s{i + 1:04d}", q, repr(gold), a.id, kind, "2" if kind != "counting" else "1", answer)
            continue
        if kind == "authors":
            q, gold, topic, hops = (
                f"Who are the authors of the paper '{title}'?",
                [_t(p.node, "author", a) for a in p.authors],
                p.node.id,
                "1",
            )
        elif kind == "year":
            q, gold, topic, hops = (
                f"In which year was the paper '{title}' published?",
                [_t(p.node, "publication year", _lit(p.year))],
                p.node.id,
                "1",
            )
        elif kind == "venue":
            q, gold, topic, hops = (
                f"At which venue was the paper '{title}' published?",
                [_t(p.node, "venue", p.venue)],
                p.node.id,
                "1",
            )
        elif kind == "method":
            q, gold, topic, hops = (
                f"Which evaluation method is used in the paper '{title}'?",
                [_t(c, "evaluation method", m) for c, m, _, _ in p.contributions],
                p.node.id,
                "2",
            )
        elif kind == "affiliation":
            a = p.authors[0]
            ai = int(a.id[1:])
            oi = pools.author_org[ai]
            org = Node(f"O{oi:04d}", pools.orgs[oi], "Organisation")
            q, gold, topic, hops = (
                f"Which organisation is {a.label}, an author of '{title}', affiliated with?",
                [_t(a, "affiliation", org)],
                p.node.id,
                "2",
            )
        elif kind == "benchmark_domain":
            _, _, _, b = p.contributions[0]
            domain = V.DOMAINS[int(b.id[1:]) % len(V.DOMAINS)]
            q, gold, topic, hops = (
                f"What is the domain of the benchmark on which the paper '{title}' reports its results?",
                [_t(b, "domain", _lit(domain))],
                p.node.id,
                "4",
            )
        else:
            a = min(p.authors, key=lambda x: (len(author_papers[x.id]), x.id))  # the least prolific
            q, gold, topic, hops = (
                f"Which papers did {a.label} author?",
                [_t(pp, "author", a) for pp in author_papers[a.id]],
                a.id,
                "1",
            )
        yield (f"s{i + 1:04d}", q, repr(gold), topic, kind, hops, answer)
