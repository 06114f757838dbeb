"""User-style wordings (lower case, no quotes, typos, MetaQA-like phrasings such as "what type of film is
X", "what words describe X", "X was released in which year") over a film graph whose predicates carry
machine-style names (`directed_by`, `starred_actors`, `has_tags`, ...), with answers computed from the
graph file. Usage, after `kgqa bench generate --domain films` and a rename of its predicates (`--rename`
does it, writing GRAPH.metaqa.csv to load and index with `--hub-type Movie`):

    python bench/metaqa_style_questions.py --rename films/graph.csv
    kgqa --db films-metaqa.kuzu load films/graph.metaqa.csv
    kgqa --db films-metaqa.kuzu index build --hub-type Movie
    python bench/metaqa_style_questions.py films-metaqa.kuzu films/graph.metaqa.csv [lower]

Prints each question whose structured result is not exactly the answer set, then recall and precision
of `result.items` per question form (offline mode, direct strategy, no topic given)."""

import csv
import random
import sys
import time
from collections import defaultdict

from kgqa.api import Workspace
from kgqa.config import RetrievalParams, Settings

#: The films generator's predicate labels and their MetaQA-style names.
RENAME = {
    "cast member": "starred_actors",
    "director": "directed_by",
    "genre": "has_genre",
    "keyword": "has_tags",
    "original language": "in_language",
    "release year": "release_year",
    "screenwriter": "written_by",
}


def rename(path: str) -> str:
    """Write PATH with MetaQA-style predicate names beside it; its path."""
    out = path.rsplit(".", 1)[0] + ".metaqa.csv"
    with open(path, encoding="utf-8", newline="") as src, open(out, "w", encoding="utf-8", newline="") as dst:
        rows = csv.reader(src)
        w = csv.writer(dst, lineterminator="\n")
        w.writerow(next(rows))
        for r in rows:
            r[1] = RENAME.get(r[1], r[1])
            w.writerow(r)
    return out


Graph = dict[str, dict[str, set[str]]]


def read_graph(path: str) -> tuple[Graph, Graph, dict[str, str]]:
    """subject -> predicate -> objects, object -> predicate -> subjects, id -> label."""
    out: Graph = defaultdict(lambda: defaultdict(set))
    inn: Graph = defaultdict(lambda: defaultdict(set))
    label: dict[str, str] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            s, p = r["subject"], r["predicate"]
            o = r["object"] if r["object_is_literal"] == "false" else "lit:" + r["object"]
            label[s] = r["subject_label"]
            label[o] = r["object_label"] or r["object"]
            out[s][p].add(o)
            inn[o][p].add(s)
    return out, inn, label


def questions(path: str, lower: bool, seed: int = 11) -> list[tuple[str, str, set[str]]]:
    """(form, question, answer labels) over sampled movies and people of the graph."""
    out, inn, label = read_graph(path)
    rng = random.Random(seed)
    movies = sorted(s for s in out if out[s].get("directed_by"))
    people = sorted(o for o in inn if any(inn[o].get(p) for p in ("directed_by", "starred_actors", "written_by")))

    def name(x: str) -> str:
        return label[x].lower() if lower else label[x]

    def fw(xs: set[str], p: str) -> set[str]:
        return {o for x in xs for o in out[x][p]}

    def bw(xs: set[str], p: str) -> set[str]:
        return {s for x in xs for s in inn[x][p]}

    found: list[tuple[str, str, set[str]]] = []

    def add(form: str, question: str, ends: set[str]) -> None:
        answers = {label[a] for a in ends}
        if answers and len(answers) <= 12:
            found.append((form, question, answers))

    for m in rng.sample(movies, min(8, len(movies))):
        t, one = name(m), {m}
        add("1h director", f"who directed {t}", fw(one, "directed_by"))
        add("1h director", f"{t} was directed by who", fw(one, "directed_by"))
        add("1h cast", f"who starred in {t}", fw(one, "starred_actors"))
        add("1h cast", f"the movie {t} starred who", fw(one, "starred_actors"))
        add("1h writer", f"who is the writer of {t}", fw(one, "written_by"))
        add("1h genre", f"what type of film is {t}", fw(one, "has_genre"))
        add("1h year", f"when was {t} released", fw(one, "release_year"))
        add("1h year", f"{t} was released in which year", fw(one, "release_year"))
        add("1h year", f"what is the release year of {t}", fw(one, "release_year"))
        add("1h language", f"what language is {t} in", fw(one, "in_language"))
        add("1h language", f"{t} is in which language", fw(one, "in_language"))
        add("1h tags", f"what words describe {t}", fw(one, "has_tags"))
        add("1h actors", f"who are the actors in {t}", fw(one, "starred_actors"))
        add("1h screenwriter", f"who is the screenwriter of {t}", fw(one, "written_by"))
        add("typo director", f"who directd {t}", fw(one, "directed_by"))
        add("typo genre", f"what genere is {t}", fw(one, "has_genre"))
        add(
            "2h share director",
            f"which movies share the director of {t}",
            bw(fw(one, "directed_by"), "directed_by") - one,
        )
        add(
            "3h genres of films sharing writers",
            f"what genres are the films that share writers with {t}",
            fw(bw(fw(one, "written_by"), "written_by") - one, "has_genre"),
        )
        add(
            "3h writers via director",
            f"who wrote the films directed by the director of {t}",
            fw(bw(fw(one, "directed_by"), "directed_by"), "written_by"),
        )
    for p in rng.sample(people, min(12, len(people))):
        t, one = name(p), {p}
        if inn[p]["directed_by"]:
            add("1h directed", f"what movies did {t} direct", bw(one, "directed_by"))
            add(
                "2h director genres",
                f"what genres do the movies directed by {t} fall under",
                fw(bw(one, "directed_by"), "has_genre"),
            )
            add(
                "2h director actors",
                f"who acted in the movies directed by {t}",
                fw(bw(one, "directed_by"), "starred_actors"),
            )
        if inn[p]["starred_actors"]:
            films = bw(one, "starred_actors")
            add("1h acted", f"what films did {t} star in", films)
            add("1h acted", f"what films has {t} acted in", films)
            add("2h co-actors", f"who starred together with {t}", fw(films, "starred_actors") - one)
            add("2h actor directors", f"which person directed the films acted by {t}", fw(films, "directed_by"))
            add("2h actor genres", f"what are the genres of the films starred by {t}", fw(films, "has_genre"))
            add("2h actor languages", f"the films starring {t} were in which languages", fw(films, "in_language"))
        if inn[p]["written_by"]:
            written = bw(one, "written_by")
            add("1h wrote", f"what movies did {t} write", written)
            add("2h writer directors", f"who are the directors of the films written by {t}", fw(written, "directed_by"))
            add("2h writer years", f"when were the movies written by {t} released", fw(written, "release_year"))
    return found


def main(db: str, graph: str, lower: bool) -> int:
    asked = questions(graph, lower)
    by: dict[str, list[tuple[float, float]]] = defaultdict(list)
    start = time.perf_counter()
    with Workspace(Settings(db_path=db), read_only=True) as ws:
        for form, question, answers in asked:
            a = ws.ask(question, RetrievalParams(strategy="direct"))
            result = a.result or {}
            items = result.get("items") or ([result["value"]] if result.get("value") else [])
            got, want = {str(i).lower() for i in items}, {x.lower() for x in answers}
            recall, precision = len(got & want) / len(want), (len(got & want) / len(got) if got else 0.0)
            by[form].append((recall, precision))
            if recall < 1 or precision < 1:
                print(f"[{form}] {question}\n  want {sorted(want)[:6]}\n  got  {a.answer[:200]}")
    print(f"{len(asked)} questions in {time.perf_counter() - start:.0f} s (offline mode, direct strategy)")
    print("| form | n | recall | precision |\n|---|---|---|---|")
    for form, values in sorted(by.items()):
        n = len(values)
        print(f"| {form} | {n} | {sum(r for r, _ in values) / n:.2f} | {sum(p for _, p in values) / n:.2f} |")
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--rename":
        print("wrote", rename(sys.argv[2]))
        sys.exit(0)
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], len(sys.argv) > 3 and sys.argv[3] == "lower"))
