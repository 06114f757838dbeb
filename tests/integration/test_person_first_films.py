"""The same film graph with its people as subjects ("P directed M", "P wrote M", "P acted in M") and
both people and films as hubs: the chain reads the verbs' direction from the schema (real Kùzu, real
MiniLM; expected answers from the CSV)."""

from __future__ import annotations

from collections import defaultdict

import pytest
from graph_rows import film_rows, indexed_rows

VERBS = {"director": "directed", "screenwriter": "wrote", "cast member": "acted in"}


@pytest.fixture(scope="module")
def person_first(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("person_first")
    rows = film_rows(root, 400, 11)
    flipped = []
    by: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # person -> verb -> titles
    genres: dict[str, set[str]] = defaultdict(set)  # title -> genres
    years: dict[str, str] = {}  # title -> release year
    for r in rows:
        if r["predicate"] in VERBS:
            verb = VERBS[r["predicate"]]
            flipped.append(
                {
                    **r,
                    "subject": r["object"],
                    "subject_label": r["object_label"],
                    "subject_types": r["object_types"],
                    "predicate": verb,
                    "object": r["subject"],
                    "object_label": r["subject_label"],
                    "object_types": r["subject_types"],
                    "object_is_literal": "false",
                }
            )
            by[r["object_label"]][verb].add(r["subject_label"])
        else:
            flipped.append(r)
            if r["predicate"] == "genre":
                genres[r["subject_label"]].add(r["object_label"])
            if r["predicate"] == "release year":
                years[r["subject_label"]] = r["object"]
    ws = indexed_rows(root, flipped, embedder, ("Person", "Movie"))
    yield ws, by, genres, years
    ws.close()


def test_co_writers_share_the_films_they_wrote(person_first):
    ws, by, _, _ = person_first
    writer = max((p for p in by if len(by[p]["wrote"]) >= 2), key=lambda p: (len(by[p]["wrote"]), p))
    co = {q for q in by if q != writer and by[q]["wrote"] & by[writer]["wrote"]}
    a = ws.ask(f"who are the co-writers of {writer.lower()}")
    assert a.strategy == "chain" and set(a.result["items"]) == co, a.answer


def test_a_value_narrows_what_a_person_did(person_first):
    ws, by, genres, _ = person_first
    for director in sorted(by, key=lambda p: (-len(by[p]["directed"]), p)):
        films = by[director]["directed"]
        genre = next((g for t in sorted(films) for g in sorted(genres[t]) if " " not in g), None)
        if genre and len(films) >= 3 and not all(genre in genres[t] for t in films):
            break
    a = ws.ask(f"which {genre.lower()} movies did {director.lower()} direct")
    assert set(a.result["items"]) == {t for t in films if genre in genres[t]}, a.answer


def test_who_directed_a_film_reads_the_verb_backwards(person_first):
    ws, by, _, _ = person_first
    title, director = next((t, p) for p in sorted(by) for t in sorted(by[p]["directed"]))
    directors = {p for p in by if title in by[p]["directed"]}
    a = ws.ask(f"who directed {title.lower()}")
    assert set(a.result["items"]) == directors and director in directors, a.answer


def test_yes_no_of_what_a_person_did(person_first):
    """ "did X direct a western?" (two steps: X's films, then their genre) and "did X direct Y?"."""
    ws, by, genres, _ = person_first
    all_genres = sorted({g for gs in genres.values() for g in gs if " " not in g})
    director = max((p for p in by if len(by[p]["directed"]) >= 2), key=lambda p: (len(by[p]["directed"]), p))
    films = by[director]["directed"]
    had = sorted({g for t in films for g in genres[t] if " " not in g})
    missing = next(g for g in all_genres if g not in had)
    yes = ws.ask(f"did {director.lower()} direct a {had[0].lower()}")
    assert yes.result["value"] == "yes" and set(yes.result["items"]) == {t for t in films if had[0] in genres[t]}
    no = ws.ask(f"did {director.lower()} direct a {missing.lower()}")
    assert no.result["value"] == "no" and no.answer.startswith("No: none of the"), no.answer
    other = next(t for p in sorted(by) for t in sorted(by[p]["directed"]) if t not in films)
    no = ws.ask(f"did {director.lower()} direct {other.lower()}")
    assert no.result["value"] == "no", no.answer


def test_was_a_film_released_in_a_year_with_people_as_hubs_too(person_first):
    """The index has two hub types and the question names neither: the film it names picks the type."""
    ws, by, _, years = person_first
    title = next(t for p in sorted(by) for t in sorted(by[p]["directed"]) if t in years)
    year = int(years[title])
    yes = ws.ask(f"was {title.lower()} released in {year}")
    assert yes.result["value"] == "yes" and yes.answer.startswith("Yes"), yes.answer
    no = ws.ask(f"did {title.lower()} come out before {year}")
    assert no.result["value"] == "no" and str(year) in no.answer, no.answer


def test_a_persons_films_after_a_year(person_first):
    """The films' catalog holds no triple from the people: the chain keeps X's films past the bound."""
    ws, by, _, years = person_first
    director = max(
        (p for p in by if len({years.get(t) for t in by[p]["directed"]} - {None}) >= 2),
        key=lambda p: (len(by[p]["directed"]), p),
    )
    films = {t: int(years[t]) for t in by[director]["directed"] if t in years}
    edge = min(films.values())
    a = ws.ask(f"which films did {director.lower()} direct after {edge}")
    assert set(a.result["items"]) == {t for t, y in films.items() if y > edge}, a.answer
