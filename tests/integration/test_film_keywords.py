"""A film graph the way MetaQA ships one (a headerless TSV of names, machine-style predicates such as
`directed_by` and `written_by`, years as plain names) asked the way people type: a slip in a sequel's last
word, decades, keyword questions without a question word, "who has acted", "the scripts of X", "from
newest to oldest". The expected answers are computed from the generator's rows here. Real Kùzu, real
model, offline mode."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pytest
from graph_rows import METAQA_NAMES, film_rows, indexed_tsv

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams


@pytest.fixture(scope="module")
def films(tmp_path_factory, embedder):
    """The workspace, and each film's facts by predicate (MetaQA's names)."""
    root = tmp_path_factory.mktemp("film-keywords")
    rows = [
        (r["subject_label"], METAQA_NAMES.get(r["predicate"], r["predicate"]), r["object_label"] or r["object"])
        for r in film_rows(root, 1500, 7)
    ]
    ws = indexed_tsv(
        root, "films", "".join(f"{s}\t{p}\t{o}\n" for s, p, o in rows), embedder, IndexParams(min_out_degree=1)
    )
    facts: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for s, p, o in rows:
        facts[s][p].append(o)
    yield ws, facts
    ws.close()


def ask(ws: Workspace, question: str) -> tuple[set[str], str, dict]:
    a = ws.ask(question, RetrievalParams(strategy="direct"))
    result = a.result or {}
    return {str(i) for i in result.get("items") or []}, a.answer, result


def films_of(facts: dict, predicate: str, who: str) -> list[str]:
    return sorted(t for t, f in facts.items() if who in f[predicate])


def test_a_slip_in_a_sequels_last_word_names_the_sequel(films):
    """ "who directed glass circus retruns": the title written in full is the shorter film's; the slipped
    word after it makes the sequel's title, which the question means."""
    ws, facts = films
    short, sequel = "Glass Circus", "Glass Circus Returns"
    assert facts[short]["directed_by"] != facts[sequel]["directed_by"]
    items, text, _ = ask(ws, "who directed glass circus retruns")
    assert items == set(facts[sequel]["directed_by"]), text
    items, text, _ = ask(ws, "what year was glass circus reutrns released")
    assert items == set(facts[sequel]["release_year"]), text
    items, text, _ = ask(ws, "who directed glass circus")  # the shorter title as written stays itself
    assert items == set(facts[short]["directed_by"]), text


def test_a_yes_no_question_about_a_title_and_its_genre(films):
    """ "is X a horror film": the genre is the value checked; the words of X are no second title (a film
    whose title shares X's first words)."""
    ws, facts = films
    # "silent echo returns" beside "silent echo 2": a title whose words (but the number) the question
    # writes too
    sequel = next(
        t
        for t in sorted(facts)
        if t.endswith(" Returns") and facts[t]["has_genre"] and t.replace(" Returns", " 2") in facts
    )
    genre = facts[sequel]["has_genre"][0]
    other = next(
        g for g in sorted({g for f in facts.values() for g in f["has_genre"]}) if g not in facts[sequel]["has_genre"]
    )
    _, text, result = ask(ws, f"is {sequel.lower()} a {genre.lower()} film")
    assert result.get("value") == "yes" and genre in text, text
    _, text, result = ask(ws, f"is {sequel.lower()} a {other.lower()} film")
    assert result.get("value") == "no" and other in text, text


def test_decades_where_the_years_are_names_of_their_own(films):
    """ "in the 1990s" is 1990 to 1999, never the year 1990 in the plural (here a name like any other)."""
    ws, facts = films
    years = {t: int(f["release_year"][0]) for t, f in facts.items() if f["release_year"]}
    decade = Counter(y // 10 * 10 for y in years.values()).most_common(1)[0][0]
    assert any(y == decade for y in years.values())  # the decade's first year is an entity of the graph
    in_decade = {t for t, y in years.items() if decade <= y < decade + 10}
    _, text, result = ask(ws, f"how many movies came out in the {decade}s")
    assert result.get("value") == len(in_decade), text
    directors = Counter(d for t in in_decade for d in facts[t]["directed_by"])
    director = max(directors, key=lambda d: (len(films_of(facts, "directed_by", d)), d))
    items, text, _ = ask(ws, f"which films did {director.lower()} direct in the {decade}s")
    assert items == {t for t in films_of(facts, "directed_by", director) if t in in_decade}, text


def test_keywords_typed_without_a_question_word(films):
    """ "horror movies from the 80s": a list of what the words before the plural describe, kept to the
    decade; "X's movies from newest to oldest" ordered by their year."""
    ws, facts = films
    years = {t: int(f["release_year"][0]) for t, f in facts.items() if f["release_year"]}
    genre, decade = Counter(
        (g, years[t] // 10 * 10) for t, f in facts.items() for g in f["has_genre"] if t in years
    ).most_common(1)[0][0]
    items, text, _ = ask(ws, f"{genre.lower()} movies from the {str(decade)[2:]}s")
    want = {t for t, f in facts.items() if genre in f["has_genre"] and decade <= years.get(t, 0) < decade + 10}
    assert items == want, text
    director = max(
        {d for f in facts.values() for d in f["directed_by"]},
        key=lambda d: (len(films_of(facts, "directed_by", d)), d),
    )
    _, text, result = ask(ws, f"list {director.lower()}'s movies from newest to oldest")
    newest_first = sorted(films_of(facts, "directed_by", director), key=lambda t: -years[t])
    assert [years[t] for t in result["items"]] == [years[t] for t in newest_first], text
    assert "release year (newest first)" in text, text


def test_who_has_acted_and_who_wrote_the_most(films):
    """ "who has acted in the most films" asks for the actors ("has" is no verb of its own); "who wrote
    the most films" for the writers ("wrote" names its role)."""
    ws, facts = films
    for question, predicate in (
        ("who has acted in the most films", "starred_actors"),
        ("who wrote the most films", "written_by"),
    ):
        counts = Counter(p for f in facts.values() for p in f[predicate])
        top = max(counts.values())
        items, text, _ = ask(ws, question)
        assert items == {p for p, n in counts.items() if n == top}, (question, text)


def test_the_scripts_of_a_writer_are_the_films_written_by_them(films):
    """ "who directed the scripts of X": a script is what the writer wrote (general English), so X's films
    are those written by X, then their directors."""
    ws, facts = films
    writers = Counter(w for f in facts.values() for w in f["written_by"])

    def directors(predicate: str, who: str) -> set[str]:
        return {d for t in films_of(facts, predicate, who) for d in facts[t]["directed_by"]}

    # one who also acted, in films of other directors: only "scripts" tells the two roles apart
    writer = next(
        w
        for w, _ in writers.most_common()
        if directors("starred_actors", w) and directors("starred_actors", w) != directors("written_by", w)
    )
    wanted = directors("written_by", writer)
    items, text, _ = ask(ws, f"who directed the scripts of {writer.lower()}")
    assert items == wanted, text


def test_the_latest_film_on_the_way_where_no_type_names_it(films):
    """ "what is the genre of the newest movie by X": no type is named "movie" here, so the hop on the way
    whose films state a year is the one kept to the newest."""
    ws, facts = films
    years = {t: int(f["release_year"][0]) for t, f in facts.items() if f["release_year"]}
    director = next(
        d
        for d in sorted({d for f in facts.values() for d in f["directed_by"]})
        if len(mine := films_of(facts, "directed_by", d)) > 2 and len({years[t] for t in mine}) == len(mine)
    )
    newest = max(films_of(facts, "directed_by", director), key=lambda t: years[t])
    items, text, _ = ask(ws, f"what is the genre of the newest movie by {director.lower()}")
    assert items == set(facts[newest]["has_genre"]) and f"latest movie, '{newest}'" in text, text


def test_the_film_with_the_most_or_fewest_of_a_relation(films):
    """ "which movie by X has the most actors": the relation the noun names (its label: starred_actors),
    counted per film; "fewest" too (it is no plain chain)."""
    ws, facts = films
    director = max(
        {d for f in facts.values() for d in f["directed_by"]},
        key=lambda d: (len({len(facts[t]["starred_actors"]) for t in films_of(facts, "directed_by", d)}), d),
    )
    cast = {t: len(facts[t]["starred_actors"]) for t in films_of(facts, "directed_by", director)}
    assert len(set(cast.values())) > 1
    for word, pick in (("most", max), ("fewest", min)):
        items, text, _ = ask(ws, f"which movie by {director.lower()} has the {word} actors")
        assert items == {t for t, n in cast.items() if n == pick(cast.values())}, text


def test_a_yes_cites_the_film_asked_about(films):
    """ "did A act in T": yes with T, not every film A acted in."""
    ws, facts = films
    actor, n = Counter(a for f in facts.values() for a in f["starred_actors"]).most_common(1)[0]
    assert n > 2
    title = films_of(facts, "starred_actors", actor)[0]
    items, text, result = ask(ws, f"did {actor.lower()} act in {title.lower()}")
    assert result.get("value") == "yes" and items in ({title}, {actor}), text


def test_a_count_asked_without_how_many(films):
    """ "number of movies directed by X", "count the movies ...": counted, not listed; the count says what
    the films have ("have the director X", not "director X")."""
    ws, facts = films
    director = max(
        {d for f in facts.values() for d in f["directed_by"]},
        key=lambda d: (len(films_of(facts, "directed_by", d)), d),
    )
    n = len(films_of(facts, "directed_by", director))
    for question in (
        f"number of movies directed by {director.lower()}",
        f"what is the number of films directed by {director.lower()}",
        f"count the movies directed by {director.lower()}",
        f"how many films has {director.lower()} made",
    ):
        _, text, result = ask(ws, question)
        assert result.get("operation") == "count" and result.get("value") == n, (question, text)
        assert not re.search(rf"\(\d+\) director {director}", text), text  # "Six films (6) director X"


def test_who_was_in_a_film_asks_for_its_cast(films):
    """ "who was in X": the cast, not the relation whose label opens with "in" (`in_language`)."""
    ws, facts = films
    title = next(t for t in sorted(facts) if facts[t]["starred_actors"] and " " in t)
    items, text, _ = ask(ws, f"who was in {title.lower()}")
    assert items == set(facts[title]["starred_actors"]), text
