"""User-style wordings (lower case, no quotes, typos, MetaQA-like phrasings such as "what type of film is
X", "what words describe X", "X was released in which year") over a film graph whose predicates carry
machine-style names (`directed_by`, `starred_actors`, `has_tags`, ...), with answers computed from the
graph file. Usage, after `kgqa bench generate --domain films` and a rename of its predicates (`--rename`
does it, writing GRAPH.metaqa.csv to load and index with `--hub-type Movie`):

    python bench/metaqa_style_questions.py --rename films/graph.csv
    kgqa --db films-metaqa.kuzu load films/graph.metaqa.csv
    kgqa --db films-metaqa.kuzu index build --hub-type Movie
    python bench/metaqa_style_questions.py films-metaqa.kuzu films/graph.metaqa.csv [lower] [second|third|fourth] [typos|name-typos]

The same graph as MetaQA ships its own, a headerless TSV of names with no labels, types or literal flags
(`--bare` writes GRAPH.metaqa.tsv; index it with `--min-out-degree 1`, every subject a hub root):

    python bench/metaqa_style_questions.py --bare films/graph.metaqa.csv
    kgqa --db films-bare.kuzu load films/graph.metaqa.tsv
    kgqa --db films-bare.kuzu index build --min-out-degree 1
    python bench/metaqa_style_questions.py films-bare.kuzu films/graph.metaqa.csv lower fourth

`second`: another 27 forms written later as a newcomer check (`second_wordings`); `third`: 20 forms in
MetaQA's own two- and three-hop phrasings (`third_wordings`); `fourth`: 37 more (`fourth_wordings`); `typos`: each question with one slip in its
longest word that names nothing (`slipped`); `name-typos`: one slip in the longest word of the name it
writes (`slipped_names`). Prints each question
whose structured result is not exactly the answer set, then recall and precision of `result.items` per
question form (offline mode, direct strategy, no topic given)."""

import csv
import random
import re
import sys
from collections import defaultdict

from question_scoring import score

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


def bare(path: str) -> str:
    """Write GRAPH.metaqa.csv as a headerless TSV of names beside it (subject, predicate, object: no ids,
    labels, types or literal flags, as MetaQA's own kb.txt); its path."""
    out = path.rsplit(".", 1)[0] + ".tsv"
    with open(path, encoding="utf-8", newline="") as src, open(out, "w", encoding="utf-8") as dst:
        for r in csv.DictReader(src):
            dst.write(f"{r['subject_label']}\t{r['predicate']}\t{r['object_label'] or r['object']}\n")
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


class AskedGraph:
    """The graph read once, with what question writers need: a name as asked, a step forward or back
    along a predicate, and the questions gathered (answer labels; sets of 1 to 12 only)."""

    def __init__(self, path: str, lower: bool) -> None:
        self.out, self.inn, self.label = read_graph(path)
        self.lower = lower
        self.found: list[tuple[str, str, set[str]]] = []
        self.movies = sorted(s for s in self.out if self.out[s].get("directed_by"))

    def name(self, x: str) -> str:
        return self.label[x].lower() if self.lower else self.label[x]

    def fw(self, xs: set[str], p: str) -> set[str]:
        return {o for x in xs for o in self.out[x][p]}

    def bw(self, xs: set[str], p: str) -> set[str]:
        return {s for x in xs for s in self.inn[x][p]}

    def people(self, p: str) -> list[str]:
        """The entities that are objects of `p` (its directors, actors, writers), sorted."""
        return sorted(o for o in self.inn if self.inn[o].get(p))

    def add(self, form: str, question: str, ends: set[str]) -> None:
        answers = {self.label[a] for a in ends}
        if answers and len(answers) <= 12:
            self.found.append((form, question, answers))


def questions(path: str, lower: bool, seed: int = 11) -> list[tuple[str, str, set[str]]]:
    """(form, question, answer labels) over sampled movies and people of the graph."""
    g = AskedGraph(path, lower)
    inn, movies, name, fw, bw, add, found = g.inn, g.movies, g.name, g.fw, g.bw, g.add, g.found
    rng = random.Random(seed)
    people = sorted(o for o in inn if any(inn[o].get(p) for p in ("directed_by", "starred_actors", "written_by")))

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


def second_wordings(path: str, lower: bool, seed: int = 29) -> list[tuple[str, str, set[str]]]:
    """Another 27 forms written later as a newcomer check (other verbs and orders: "who was X directed by",
    "what year did X come out", "X appears in which movies", "who acted alongside X", relative clauses
    such as "who directed the movies X acted in", three hops such as "who starred in the movies directed
    by the director of X"), over other sampled movies and people."""
    g = AskedGraph(path, lower)
    movies, name, fw, bw, add, found, people = g.movies, g.name, g.fw, g.bw, g.add, g.found, g.people
    rng = random.Random(seed)

    for m in rng.sample(movies, 6):
        t, one = name(m), {m}
        add("1 director-of", f"who is the director of {t}", fw(one, "directed_by"))
        add("1 directed-by-who", f"who was {t} directed by", fw(one, "directed_by"))
        add("1 acted-in", f"who acted in {t}", fw(one, "starred_actors"))
        add("1 actors-appear", f"which actors appear in {t}", fw(one, "starred_actors"))
        add("1 wrote", f"who wrote {t}", fw(one, "written_by"))
        add("1 genre-is", f"what genre is {t}", fw(one, "has_genre"))
        add("1 come-out", f"what year did {t} come out", fw(one, "release_year"))
        add("1 about", f"what is {t} about", fw(one, "has_tags"))
        same = bw(fw(one, "directed_by"), "directed_by") - one
        add("2 same-director", f"which movies have the same director as {t}", same)
        co = bw(fw(one, "starred_actors"), "starred_actors") - one
        add("3 share-actors-lang", f"what languages are the films that share actors with {t} in", fw(co, "in_language"))
        cast = fw(bw(fw(one, "directed_by"), "directed_by"), "starred_actors")
        add("3 director-cast", f"who starred in the movies directed by the director of {t}", cast)
    for p in rng.sample(people("directed_by"), 6):
        t, films = name(p), bw({p}, "directed_by")
        add("1 films-directed-by", f"films directed by {t}", films)
        add("1 p-directed-which", f"{t} directed which movies", films)
        add("2 dir-langs", f"what languages are the movies directed by {t} in", fw(films, "in_language"))
        add("2 dir-cast", f"the films directed by {t} starred who", fw(films, "starred_actors"))
        add("2 rel-cast-of-directed", f"who starred in the films {t} directed", fw(films, "starred_actors"))
    for p in rng.sample(people("starred_actors"), 8):
        t, films = name(p), bw({p}, "starred_actors")
        add("1 movies-starring", f"movies starring {t}", films)
        add("1 appears-in", f"{t} appears in which movies", films)
        add("1 feature", f"what movies feature {t}", films)
        add("2 alongside", f"who acted alongside {t}", fw(films, "starred_actors") - {p})
        add("2 dirs-of-films-starring", f"who directed the movies {t} acted in", fw(films, "directed_by"))
        add("2 years-starring", f"when did the movies starring {t} come out", fw(films, "release_year"))
        add("2 writers-starring", f"who wrote the films starring {t}", fw(films, "written_by"))
        add("2 rel-langs-starred", f"what languages are the movies {t} starred in", fw(films, "in_language"))
    for p in rng.sample(people("written_by"), 6):
        t, films = name(p), bw({p}, "written_by")
        add("1 written-by", f"which films were written by {t}", films)
        add("2 writer-genres", f"what genres are the movies written by {t}", fw(films, "has_genre"))
        add("2 rel-genres-wrote", f"what genres are the films {t} wrote", fw(films, "has_genre"))
    for tag in rng.sample(people("has_tags"), 5):
        add("1 about-tag", f"which movies are about {name(tag)}", bw({tag}, "has_tags"))
    return found


def third_wordings(path: str, lower: bool, seed: int = 47) -> list[tuple[str, str, set[str]]]:
    """A third set written as a newcomer check in session 50: MetaQA's own two- and three-hop phrasings
    ("whose directors also directed X", "the films that share actors with the film X were released in which
    years", "which person wrote the films directed by the director of X", "who are the co-directors of X",
    "what types are the movies written by X"), over other sampled movies and people."""
    g = AskedGraph(path, lower)
    movies, name, fw, bw, add, found, people = g.movies, g.name, g.fw, g.bw, g.add, g.found, g.people
    rng = random.Random(seed)

    for m in rng.sample(movies, 8):
        t, one = name(m), {m}
        by_dirs = bw(fw(one, "directed_by"), "directed_by") - one
        by_cast = bw(fw(one, "starred_actors"), "starred_actors") - one
        by_writers = bw(fw(one, "written_by"), "written_by") - one
        add(
            "3 whose-directors-cast",
            f"who starred in the movies whose directors also directed {t}",
            fw(by_dirs, "starred_actors"),
        )
        add(
            "3 whose-directors-years",
            f"when did the movies release whose directors also directed {t}",
            fw(by_dirs, "release_year"),
        )
        add(
            "3 share-actors-years",
            f"the films that share actors with the film {t} were released in which years",
            fw(by_cast, "release_year"),
        )
        add(
            "3 share-dirs-writers",
            f"the films that share directors with the film {t} were written by who",
            fw(by_dirs, "written_by"),
        )
        add(
            "3 share-dirs-langs",
            f"what are the primary languages in the movies whose directors also directed {t}",
            fw(by_dirs, "in_language"),
        )
        add(
            "3 share-writers-cast",
            f"who acted in the films whose writers also wrote {t}",
            fw(by_writers, "starred_actors"),
        )
        add(
            "3 director-writers",
            f"which person wrote the films directed by the director of {t}",
            fw(bw(fw(one, "directed_by"), "directed_by"), "written_by"),
        )
        add(
            "3 writer-directors",
            f"who directed the movies written by the writer of {t}",
            fw(bw(fw(one, "written_by"), "written_by"), "directed_by"),
        )
        add(
            "3 actors-genres",
            f"what types are the films starred by actors in {t}",
            fw(bw(fw(one, "starred_actors"), "starred_actors"), "has_genre"),
        )
        add("2 share-director", f"which movies share the same director of {t}", by_dirs)
        add("2 actors-also", f"the actors in {t} also appear in which movies", by_cast)
    for p in rng.sample(people("directed_by"), 6):
        t, films = name(p), bw({p}, "directed_by")
        add("2 co-directors", f"who are the co-directors of {t}", fw(films, "directed_by") - {p})
        add("2 main-languages", f"what are the main languages in the movies directed by {t}", fw(films, "in_language"))
        add("2 dir-release", f"when did the films directed by {t} release", fw(films, "release_year"))
        add("2 dir-genres-which", f"the movies directed by {t} were in which genres", fw(films, "has_genre"))
    for p in rng.sample(people("starred_actors"), 6):
        t, films = name(p), bw({p}, "starred_actors")
        add("2 co-starred", f"who co-starred with {t}", fw(films, "starred_actors") - {p})
        add("2 writer-starred-by", f"which person wrote the movies starred by {t}", fw(films, "written_by"))
        add("2 release-dates", f"what are the release dates of the movies acted by {t}", fw(films, "release_year"))
    for p in rng.sample(people("written_by"), 6):
        t, films = name(p), bw({p}, "written_by")
        add("2 types-written", f"what types are the movies written by {t}", fw(films, "has_genre"))
        add("2 actors-written", f"who are the actors in the films written by {t}", fw(films, "starred_actors"))
        add("2 written-years", f"the films written by {t} were released in which years", fw(films, "release_year"))
    return found


def fourth_wordings(path: str, lower: bool, seed: int = 52) -> list[tuple[str, str, set[str]]]:
    """37 more forms written as a newcomer check in session 52 (MetaQA's "X was written by who", "what
    sort of movie is X", "the director of X also directed which movies", "what movies was X in", ...)."""
    g = AskedGraph(path, lower)
    name, fw, bw, add = g.name, g.fw, g.bw, g.add
    rng = random.Random(seed)
    for m in rng.sample(g.movies, 6):
        t, one = name(m), {m}
        dirs, cast, wr = fw(one, "directed_by"), fw(one, "starred_actors"), fw(one, "written_by")
        add("1 written-by-who", f"{t} was written by who", wr)
        add("1 director-is-who", f"the director of {t} is who", dirs)
        add("1 sort", f"what sort of movie is {t}", fw(one, "has_genre"))
        add("1 kind", f"{t} is what kind of film", fw(one, "has_genre"))
        add("1 release-date", f"what was the release date of {t}", fw(one, "release_year"))
        add("1 spoken", f"what language is spoken in {t}", fw(one, "in_language"))
        add("1 primary-lang", f"what is the primary language of {t}", fw(one, "in_language"))
        add("1 topics", f"which topics is {t} about", fw(one, "has_tags"))
        add("1 who-in", f"who was in {t}", cast)
        add("1 stars", f"who are the stars of {t}", cast)
        add("1 screenplay", f"who wrote the screenplay for {t}", wr)
        add("2 same-writer", f"which movies have the same screenwriter as {t}", bw(wr, "written_by") - one)
        add("2 share-writer", f"what films share the writer of {t}", bw(wr, "written_by") - one)
        add("2 same-actor", f"which movies share the same actor of {t}", bw(cast, "starred_actors") - one)
        add("2 dir-also", f"the director of {t} also directed which movies", bw(dirs, "directed_by") - one)
        add("2 cast-other", f"what other movies did the actors of {t} appear in", bw(cast, "starred_actors") - one)
        co = bw(cast, "starred_actors") - one
        add("3 share-actors-dirs", f"the movies that share actors with {t} were directed by who", fw(co, "directed_by"))
        sd = bw(dirs, "directed_by") - one
        add("3 same-dir-genres", f"what genres are the films with the same director as {t}", fw(sd, "has_genre"))
        add(
            "3 writer-films-years",
            f"when were the other films by the writer of {t} released",
            fw(bw(wr, "written_by") - one, "release_year"),
        )
        add("3 dir-films-writers", f"who wrote the other movies of the director of {t}", fw(sd, "written_by"))
    people = sorted(o for o in g.inn if g.inn[o].get("directed_by"))
    for p in rng.sample(people, 4):
        t = name(p)
        films = bw({p}, "directed_by")
        add("1 dir-movies-was", f"what movies was {t} the director of", films)
        add("1 dir-which", f"which films were directed by {t}", films)
        add("2 dir-writers", f"who are the writers of the movies directed by {t}", fw(films, "written_by"))
        add("2 dir-actors", f"which actors appeared in films directed by {t}", fw(films, "starred_actors"))
        add("2 dir-years", f"what years were {t}'s movies released", fw(films, "release_year"))
    actors = sorted(o for o in g.inn if g.inn[o].get("starred_actors"))
    for p in rng.sample(actors, 4):
        t = name(p)
        films = bw({p}, "starred_actors")
        add("1 act-was-in", f"what movies was {t} in", films)
        add("1 act-which", f"{t} starred in which films", films)
        add("1 act-an-actor", f"which movies was {t} an actor in", films)
        add("2 act-genres", f"what kind of movies has {t} been in", fw(films, "has_genre"))
        add("2 act-coactors", f"who are the co-actors of {t}", fw(films, "starred_actors") - {p})
        add("2 act-lang", f"what languages are spoken in the films {t} appeared in", fw(films, "in_language"))
        add(
            "3 act-dirs-films",
            f"what other films did the directors of {t}'s movies direct",
            bw(fw(films, "directed_by"), "directed_by") - films,
        )
    writers = sorted(o for o in g.inn if g.inn[o].get("written_by"))
    for p in rng.sample(writers, 3):
        t = name(p)
        films = bw({p}, "written_by")
        add("1 wr-which", f"{t} wrote which films", films)
        add("1 wr-are", f"what are the movies written by {t}", films)
        add("2 wr-dirs", f"{t} wrote movies directed by who", fw(films, "directed_by"))
        add("2 wr-cast", f"which actors starred in the films {t} wrote", fw(films, "starred_actors"))
    tags = sorted(o for o in g.inn if g.inn[o].get("has_tags"))
    for tg in rng.sample(tags, 3):
        t = name(tg)
        films = bw({tg}, "has_tags")
        add("1 tag-described", f"what films can be described by {t}", films)
        add("1 tag-subject", f"{t} is the subject of which movies", films)
        add("2 tag-dirs", f"who directed the movies about {t}", fw(films, "directed_by"))
    return g.found


def slipped(found: list[tuple[str, str, set[str]]], graph: str) -> list[tuple[str, str, set[str]]]:
    """Each question with one typing slip in its longest word that is no word of an entity's name, as
    people type: in turn its third letter dropped ("written" -> "wrtten"), its second and third letters
    swapped ("director" -> "driector") or its third letter doubled ("genre" -> "gennre")."""
    names = {w for label in read_graph(graph)[2].values() for w in re.findall(r"[a-z]+", label.lower())}
    out = []
    for k, (form, question, answers) in enumerate(found):
        words = [w for w in re.findall(r"[a-z]+", question.lower()) if len(w) >= 5 and w not in names]
        if not words:
            continue
        w = max(words, key=lambda w: (len(w), w))
        typed = _slip(w, k)
        out.append((form, re.sub(rf"\b{w}\b", typed, question, count=1, flags=re.IGNORECASE), answers))
    return out


def _slip(w: str, k: int) -> str:
    """The `k`-th slip of `slipped`, in turn: the third letter dropped, the second and third swapped, the
    third doubled."""
    return [w[:2] + w[3:], w[0] + w[2] + w[1] + w[3:], w[:3] + w[2] + w[3:]][k % 3]


def slipped_names(found: list[tuple[str, str, set[str]]], graph: str) -> list[tuple[str, str, set[str]]]:
    """Each question with one typing slip in the longest word of the name it writes (a word of five
    letters or more of an entity's name), the slips of `slipped` in turn, where the slip leaves no word
    of any name ("crimson garden" -> "crimson gadren"); questions whose names have no such word are left out."""
    names = {w for label in read_graph(graph)[2].values() for w in re.findall(r"[a-z]+", label.lower())}
    out = []
    for k, (form, question, answers) in enumerate(found):
        words = [w for w in re.findall(r"[a-z]+", question.lower()) if len(w) >= 5 and w in names]
        typed_words = [(w, _slip(w, k)) for w in words]
        typed_words = [(w, t) for w, t in typed_words if t not in names and t != w]
        if not typed_words:
            continue
        w, typed = max(typed_words, key=lambda pair: (len(pair[0]), pair[0]))
        out.append((form, re.sub(rf"\b{w}\b", typed, question, count=1, flags=re.IGNORECASE), answers))
    return out


def main(db: str, graph: str, lower: bool, which: str = "first", typos: str = "") -> int:
    sets = {"first": questions, "second": second_wordings, "third": third_wordings, "fourth": fourth_wordings}
    found = sets[which](graph, lower)
    slips = {"typos": slipped, "name-typos": slipped_names}
    return score(db, slips[typos](found, graph) if typos else found)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--rename":
        print("wrote", rename(sys.argv[2]))
        sys.exit(0)
    if len(sys.argv) >= 3 and sys.argv[1] == "--bare":
        print("wrote", bare(sys.argv[2]))
        sys.exit(0)
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    chosen = [w for w in ("second", "third", "fourth") if w in sys.argv[3:]]
    typos = next((a for a in sys.argv[3:] if a in ("typos", "name-typos")), "")
    sys.exit(main(sys.argv[1], sys.argv[2], "lower" in sys.argv[3:], chosen[0] if chosen else "first", typos))
