"""Triple files that name their entities by their ids and state no labels (a headerless TSV of a movie
knowledge base such as MetaQA's, N-Triples without rdfs:label): each entity is labelled with the name
its id gives (`kgqa.types.name_from_id`), so questions that write the names reach them. A label a
record states wins over that name, whichever file comes first. Where the file states no types either,
relation chains tell a film from its director, its tags and its year by the graph's shape
(kgqa/retrieval/chains/schema.py). Real Kùzu, real Postgres, real model."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.errors import InputError
from kgqa.graph.reader import entities_by_ids
from kgqa.synthetic.films import generate_films


def _film_rows(root: Path, triples: int, seed: int) -> list[dict[str, str]]:
    """The rows of a generated film graph (`kgqa bench generate --domain films`) written under `root`."""
    gen = generate_films(root / "films", triples, seed=seed, questions=0)
    with gen.graph_file.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _bare_triples(rows: list[dict[str, str]], path: Path) -> Path:
    """The film graph as a headerless TSV of names: subject, predicate, object, nothing else."""
    with path.open("w", encoding="utf-8", newline="") as fh:
        for r in rows:
            fh.write(f"{r['subject_label']}\t{r['predicate']}\t{r['object_label'] or r['object']}\n")
    return path


def _names_only(rows: list[dict[str, str]], path: Path) -> Path:
    """The film graph with names as ids and no label columns (types and literal flags kept)."""
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["subject", "predicate", "object", "subject_types", "object_types", "object_is_literal"])
        for r in rows:
            obj = r["object_label"] or r["object"]
            w.writerow(
                [r["subject_label"], r["predicate"], obj, r["subject_types"], r["object_types"], r["object_is_literal"]]
            )
    return path


@pytest.fixture(scope="module")
def named_by_ids(tmp_path_factory, embedder):
    """A generated film graph loaded from a file without labels, indexed with hub type Movie; yields the
    workspace and the rows of the generator's file."""
    root = tmp_path_factory.mktemp("unlabelled")
    rows = _film_rows(root, 150, 3)
    ws = Workspace.init(Settings(db_path=root / "films.kuzu"), embedder=embedder)
    ws.load(_names_only(rows, root / "names.csv"))
    ws.build_index(IndexParams(hub_types=("Movie",)))
    yield ws, rows
    ws.close()


def _films(rows: list[dict[str, str]]) -> dict[str, dict[str, set[str]]]:
    out: dict[str, dict[str, set[str]]] = {}
    for r in rows:
        if r["subject_types"] == "Movie":
            out.setdefault(r["subject_label"], {}).setdefault(r["predicate"], set()).add(
                r["object_label"] or r["object"]
            )
    return out


def test_questions_typed_in_lower_case_reach_entities_named_by_their_ids(named_by_ids):
    ws, rows = named_by_ids
    films = _films(rows)
    title = next(
        t for t in sorted(films) if len(films[t]["director"]) == 1 and len(films[t].get("screenwriter", ())) >= 1
    )
    (director,) = films[title]["director"]
    assert entities_by_ids(ws.store, [title])[title].label == title
    answer = ws.ask(f"who directed {title.lower()}", RetrievalParams(strategy="direct"))
    assert answer.result and answer.result.get("items") == [director], answer.answer
    answer = ws.ask(f"who wrote {title.lower()}", RetrievalParams(strategy="direct"))
    assert set(answer.result["items"]) == films[title]["screenwriter"], answer.answer
    directed = {t for t, f in films.items() if director in f["director"]}
    answer = ws.ask(f"which movies did {director.lower()} direct", RetrievalParams(strategy="direct"))
    assert set(answer.result["items"]) == directed, answer.answer


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _labels_after_loads(ws: Workspace, tmp_path: Path) -> dict[str, str]:
    """Load a headerless TSV without labels, then a CSV that labels one of its entities and states no
    label for another that the first file's N-Triples-style IRI names."""
    ws.load(
        _write(
            tmp_path / "kb.tsv",
            "Silent Echo\tdirected_by\tInes Brannigan\n"
            "http://example.org/film/Am%C3%A9lie_(2001)\tdirected_by\thttp://example.org/person/Jean-Pierre_Jeunet\n"
            "Silent Echo\trelated\turn:isbn:0451450523\n",
        )
    )
    ws.load(
        _write(
            tmp_path / "labels.csv",
            "subject,predicate,object,subject_label,object_label\n"
            "Silent Echo,directed_by,Ines Brannigan,Silent Echo (1977),\n",
        )
    )
    ws.load(_write(tmp_path / "again.tsv", "Silent Echo\tdirected_by\tInes Brannigan\n"))
    ids = [
        "Silent Echo",
        "Ines Brannigan",
        "http://example.org/film/Am%C3%A9lie_(2001)",
        "http://example.org/person/Jean-Pierre_Jeunet",
        "urn:isbn:0451450523",
    ]
    return {i: e.label for i, e in entities_by_ids(ws.store, ids).items()}


EXPECTED = {
    "Silent Echo": "Silent Echo (1977)",  # stated by the second file, kept when the third states none
    "Ines Brannigan": "Ines Brannigan",
    "http://example.org/film/Am%C3%A9lie_(2001)": "Amélie (2001)",
    "http://example.org/person/Jean-Pierre_Jeunet": "Jean-Pierre Jeunet",
    "urn:isbn:0451450523": "0451450523",
}


def test_kuzu_labels_entities_by_their_ids_until_a_record_states_a_label(workspace, tmp_path):
    assert _labels_after_loads(workspace, tmp_path) == EXPECTED


@pytest.mark.postgres
def test_postgres_labels_entities_by_their_ids_as_kuzu_does(pg_database, tmp_path, embedder):
    settings = Settings(db_path=tmp_path / "none.kuzu", graph="postgres", store="pgvector", pg_dsn=pg_database)
    with Workspace(settings, embedder=embedder) as ws:
        assert _labels_after_loads(ws, tmp_path) == EXPECTED


def _rated(rows: list[dict[str, str]]) -> dict[str, tuple[str, str]]:
    """An IMDb rating and vote word for each film, as MetaQA's KB has them (two labels sharing "imdb")."""
    titles = sorted({r["subject_label"] for r in rows if r["subject_types"] == "Movie"})
    return {t: (("good", "bad", "average")[i % 3], ("famous", "popular")[i % 2]) for i, t in enumerate(titles)}


@pytest.fixture(scope="module")
def bare(tmp_path_factory, embedder):
    """The generated film graph as a headerless TSV of names (no labels, no types, no literal flags),
    indexed as the hub-root error asks (every subject a hub root); yields the workspace, the rows and
    the error a build with the default criteria gave."""
    root = tmp_path_factory.mktemp("bare")
    rows = _film_rows(root, 200, 4)
    ws = Workspace.init(Settings(db_path=root / "kb.kuzu"), embedder=embedder)
    ws.load(_bare_triples(rows, root / "kb.tsv"))
    ws.load(
        _write(
            root / "ratings.tsv",
            "".join(f"{t}\thas_imdb_rating\t{r}\n{t}\thas_imdb_votes\t{v}\n" for t, (r, v) in _rated(rows).items()),
        )
    )
    with pytest.raises(InputError) as refused:
        ws.build_index(IndexParams())
    ws.build_index(IndexParams(hub_types=(), min_out_degree=1))
    yield ws, rows, refused.value
    ws.close()


def _items(ws: Workspace, question: str) -> set[str]:
    answer = ws.ask(question, RetrievalParams(strategy="direct"))
    return set((answer.result or {}).get("items") or [])


def test_a_graph_without_types_is_told_how_to_choose_hub_roots(bare):
    assert "--min-out-degree 1" in str(bare[2]) and "no entity has a type" in str(bare[2])


def test_chains_over_a_graph_without_types(bare):
    ws, rows, _ = bare
    films = _films(rows)
    by: dict[tuple[str, str], set[str]] = {}
    for title, facts in films.items():
        for predicate, objects in facts.items():
            for o in objects:
                by.setdefault((predicate, o), set()).add(title)
    title = next(
        t for t in sorted(films) if len(films[t]["director"]) == 1 and len(by[("director", *films[t]["director"])]) > 1
    )
    (director,) = films[title]["director"]
    assert _items(ws, f"who directed {title.lower()}") == {director}
    assert _items(ws, f"when was {title.lower()} released") == films[title]["release year"]
    assert _items(ws, f"which movies share the director of {title.lower()}") == by[("director", director)] - {title}
    others = by[("director", director)] - {title}
    writers = {w for t in others | {title} for w in films[t].get("screenwriter", ())}
    assert _items(ws, f"who wrote the films directed by the director of {title.lower()}") == writers
    # someone who acted and wrote: "in" their films is where they acted, the relation they have most of
    actor = next(
        p
        for (pred, p), acted in sorted(by.items())
        if pred == "cast member" and ("screenwriter", p) in by and len(acted) > len(by[("screenwriter", p)])
    )
    assert _items(ws, f"what movies was {actor.lower()} in") == by[("cast member", actor)]
    assert _items(ws, f"what movies did {actor.lower()} write") == by[("screenwriter", actor)]


@pytest.mark.postgres
def test_postgres_reads_a_graph_without_types_as_kuzu_does(pg_database, tmp_path, embedder):
    rows = _film_rows(tmp_path, 120, 6)
    films = _films(rows)
    settings = Settings(db_path=tmp_path / "none.kuzu", graph="postgres", store="pgvector", pg_dsn=pg_database)
    with Workspace(settings, embedder=embedder) as ws:
        ws.load(_bare_triples(rows, tmp_path / "kb.tsv"))
        ws.build_index(IndexParams(hub_types=(), min_out_degree=1))
        title = next(t for t in sorted(films) if len(films[t]["director"]) == 1)
        (director,) = films[title]["director"]
        assert _items(ws, f"who directed {title.lower()}") == {director}
        assert _items(ws, f"when was {title.lower()} released") == films[title]["release year"]
        directed = {t for t, f in films.items() if director in f["director"]}
        assert _items(ws, f"what movies did {director.lower()} direct") == directed


def test_a_word_two_labels_share_is_read_with_its_neighbour(bare):
    ws, rows, _ = bare
    rated = _rated(rows)
    title = sorted(rated)[4]
    rating, votes = rated[title]
    answer = ws.ask(f"what is the imdb rating of {title.lower()}", RetrievalParams(strategy="direct"))
    assert (answer.result or {}).get("items") == [rating], answer.answer
    assert answer.answer.startswith(f"The imdb rating of '{title}' is {rating}"), answer.answer  # the label
    assert _items(ws, f"what are the imdb votes of {title.lower()}") == {votes}
    assert _items(ws, f"how would people rate {title.lower()}") == {rating}


def test_a_phrase_whose_head_names_nothing_in_the_graph_gets_no_answer(named_by_ids):
    ws, rows = named_by_ids
    title = sorted(_films(rows))[0]
    answer = ws.ask(f"what is the imdb rating of {title.lower()}", RetrievalParams(strategy="direct"))
    assert not (answer.result or {}).get("items"), answer.answer  # no rating here; "imdb" is only near the cast


def _misspelt(name: str, words: set[str]) -> str | None:
    """`name` (lower case) with its first word of six letters or more missing its fourth letter, where
    that leaves no word of the graph's labels; None when it has no such word."""
    parts = name.lower().split()
    for i, w in enumerate(parts):
        typo = w[:3] + w[4:]
        if len(w) >= 6 and w.isalpha() and typo not in words:
            return " ".join([*parts[:i], typo, *parts[i + 1 :]])
    return None


def test_a_title_or_a_name_written_with_a_typo_is_read_as_the_label_it_is_near(bare):
    """A graph without types has no exact answers' catalog to link a typo: the chain reader reads the
    question's words that no label writes as the label words they are near (kgqa/retrieval/chains/spelling.py)."""
    ws, rows, _ = bare
    films = _films(rows)
    labels = {r["subject_label"] for r in rows} | {r["object_label"] or r["object"] for r in rows}
    words = {w for label in labels for w in label.lower().split()}
    title = next(t for t in sorted(films) if len(films[t]["director"]) == 1 and _misspelt(t, words))
    (director,) = films[title]["director"]
    written = _misspelt(title, words)
    assert _items(ws, f"who directed {written}") == {director}
    assert _items(ws, f"when was {written} released") == films[title]["release year"]
    person = next(p for p in sorted({d for f in films.values() for d in f["director"]}) if _misspelt(p, words))
    directed = {t for t, f in films.items() if person in f["director"]}
    assert _items(ws, f"what movies did {_misspelt(person, words)} direct") == directed
    # every word of the title guessed: no topic is made up
    both = " ".join(w[:3] + w[4:] if len(w) >= 6 else w for w in title.lower().split())
    if both != written:
        answer = ws.ask(f"who directed {both}", RetrievalParams(strategy="direct"))
        assert not answer.answer.startswith(f"The director of '{title}'"), answer.answer


def test_yes_or_no_is_read_from_the_triples_between_the_topic_and_the_value(bare):
    """Without a catalog the exact answers cannot verify "is X a drama": the chain reader answers from the
    triples between the topic and the value (kgqa/retrieval/chains/verdict.py), by the relation named."""
    ws, rows, _ = bare
    films = _films(rows)
    genres = sorted({g for f in films.values() for g in f.get("genre", ())})
    title = next(
        t
        for t in sorted(films)
        if len(films[t].get("genre", ())) == 1
        and len(films[t]["director"]) == 1
        and len(films[t].get("release year", ())) == 1
        and set(films[t].get("screenwriter", ())) - films[t]["director"]
    )
    (genre,) = films[title]["genre"]
    other = next(g for g in genres if g != genre)
    (year,) = films[title]["release year"]

    def verdict(question: str) -> tuple[str | None, list[str], str]:
        answer = ws.ask(question, RetrievalParams(strategy="direct"))
        result = answer.result or {}
        return result.get("value"), result.get("items") or [], answer.answer

    assert verdict(f"is {title.lower()} a {genre.lower()} film")[:2] == ("yes", [genre])
    value, items, text = verdict(f"is {title.lower()} a {other.lower()}")
    assert (value, items) == ("no", [genre]), text
    assert text.startswith(f"No, '{title}' has the genre {genre} [1], not {other}"), text
    assert verdict(f"was {title.lower()} released in {year}")[:2] == ("yes", [year])
    assert verdict(f"was {title.lower()} released in {int(year) + 1}")[:2] == ("no", [year])
    writer = sorted(set(films[title]["screenwriter"]) - films[title]["director"])[0]
    value, items, text = verdict(f"did {writer.lower()} direct {title.lower()}")
    assert (value, items) == ("no", sorted(films[title]["director"])), text


def test_how_many_things_are_in_a_value(bare):
    """ "how many movies are in french": the things the value is a value of, counted (the noun after "how
    many" is the type asked, as after "which"; before, no chain was read and nothing answered)."""
    ws, rows, _ = bare
    films = _films(rows)
    by_language: dict[str, set[str]] = {}
    for title, facts in films.items():
        for language in facts.get("original language", ()):
            by_language.setdefault(language, set()).add(title)
    language = max(sorted(by_language), key=lambda lang: len(by_language[lang]))
    answer = ws.ask(f"how many movies are in {language.lower()}", RetrievalParams(strategy="direct"))
    result = answer.result or {}
    assert result.get("operation") == "count" and result.get("value") == len(by_language[language]), answer.answer
    assert set(result.get("items") or []) == by_language[language]


def test_a_passive_label_runs_the_right_way_where_every_subject_is_one_kind(tmp_path, embedder):
    """A headerless TSV whose authors and publishers are subjects too (born in, based in): every subject is
    the same untyped "thing", so `written_by` goes both ways in the schema and the question's voice decides,
    turned round for a label in the passive ("who wrote X": X written by someone; before, "Nothing in the
    graph written_by 'X'")."""
    rows = [
        ("The Glass Orchard", "written_by", "Maren Holt"),
        ("The Glass Orchard", "published_by", "Northwind Press"),
        ("Salt and Ember", "written_by", "Maren Holt"),
        ("Salt and Ember", "published_by", "Harbor House"),
        ("The Iron Meridian", "written_by", "Cosima Reyes"),
        ("The Iron Meridian", "published_by", "Northwind Press"),
        ("Maren Holt", "born_in", "Tromsø"),
        ("Cosima Reyes", "born_in", "Valencia"),
        ("Northwind Press", "based_in", "Oslo"),
        ("Harbor House", "based_in", "London"),
    ]
    path = _write(tmp_path / "books.tsv", "".join(f"{s}\t{p}\t{o}\n" for s, p, o in rows))
    with Workspace.init(Settings(db_path=tmp_path / "books.kuzu"), embedder=embedder) as ws:
        ws.load(path)
        ws.build_index(IndexParams(hub_types=(), min_out_degree=1))
        assert _items(ws, "who wrote the iron meridian") == {"Cosima Reyes"}
        assert _items(ws, "which books did maren holt write") == {"Salt and Ember", "The Glass Orchard"}
        assert _items(ws, "which books were published by northwind press") == {"The Glass Orchard", "The Iron Meridian"}
        # "author" is the doer of writing and of publishing (AGENT_NOUNS): the label in the passive names its
        # doer, "written by" the writer, which "author" is nearest (before: the publisher)
        assert _items(ws, "who is the author of the glass orchard") == {"Maren Holt"}
        assert _items(ws, "where was the author of salt and ember born") == {"Tromsø"}
