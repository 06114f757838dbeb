"""The parts around relation chains: answer metrics, the guard that leaves constrained questions to
HubLink, the chain reader over a hand-written schema (real MiniLM), gzip input, the --uniform-hops
option and the film generator's answers."""

from __future__ import annotations

import ast
import csv
import gzip
from pathlib import Path

import pytest

from kgqa.config import RetrievalParams
from kgqa.errors import InputError
from kgqa.evaluation.answer_metrics import answer_recall, answer_table, answers_of, hits_at_1
from kgqa.graph.loaders import detect_format, get_loader
from kgqa.graph.loaders.base import TripleRecord
from kgqa.retrieval.chains.guards import declines
from kgqa.retrieval.chains.reading import ChainReader
from kgqa.retrieval.chains.schema import LITERAL, Connection, GraphSchema
from kgqa.retrieval.options import AskOptions, options_from_params, params_from_options
from kgqa.synthetic.films import generate_films


def test_hits_at_1_reads_the_first_item_and_recall_needs_a_whole_element():
    assert hits_at_1({"items": ["Ada", "Bo"]}, ["bo", "ada"]) == 1.0
    assert hits_at_1({"items": ["Cy"], "value": "Ada"}, ["Ada"]) == 0.0
    assert hits_at_1({"items": [], "value": "Ada"}, ["Ada"]) == 1.0
    assert hits_at_1(None, ["Ada"]) == 0.0
    triples = ["(M1:Film Two, director, N1:Ada Lind)", "(M1:Film Two, release year, 1999)"]
    assert answer_recall(triples, ["Ada Lind", "1999"]) == 1.0
    assert answer_recall(triples, ["Ada", "2"]) == 0.0  # parts of names do not count
    assert answers_of({"answers": "['a', 'b']"}) == ["a", "b"] and answers_of({}) is None
    rows = [{"hits_at_1": 1.0, "answer_recall": 0.5, "hops": "2", "form": "f/1", "runtime_s": 0.02}]
    table = answer_table(rows)
    assert "Hits@1" in table and "by hops" in table and "  2 " in table


@pytest.mark.parametrize(
    "question, declined",
    [
        ("Which papers were published at ICSA in 2019?", True),
        ("Which papers of Ada Lind were not evaluated with a case study?", True),
        ("Who wrote more papers than Ada Lind?", True),
        ("How are the papers of Ada Lind distributed by their publication year?", True),
        ("Who are the co-authors of Ada Lind?", False),
        ("Which papers share an author with 'Ada Lind'?", False),
        ("is ada lind the author of graph queries at scale?", True),  # yes or no: not a list of what it reaches
        ("Did Ada Lind write a paper with Bo Chen?", True),
    ],
)
def test_constrained_negated_and_comparing_questions_are_declined(question, declined):
    start = question.lower().find("ada lind")
    span = (start, start + len("Ada Lind")) if start >= 0 else None
    assert (declines(question, span) is not None) == declined


def _steps(schema: GraphSchema, embedder, question: str, topic: str, topic_types: set[str]) -> list | None:
    """The chain the reader plans from the topic's mention (None: no chain)."""
    start = question.index(topic)
    plan = ChainReader(schema, embedder).plan(question, (start, start + len(topic)), topic_types, 4)
    return list(plan.steps) if plan is not None else None


def _schema() -> GraphSchema:
    film, person, genre = frozenset({"Film"}), frozenset({"Person"}), frozenset({"Genre"})
    rows = [
        Connection("directed by", film, person, 50),
        Connection("stars", film, person, 200),
        Connection("written by", film, person, 60),
        Connection("has genre", film, genre, 70),
        Connection("year", film, frozenset({LITERAL}), 50),
        Connection("has tags", film, frozenset({"Tag"}), 90),
    ]
    return GraphSchema({c.predicate: [c] for c in rows})


@pytest.mark.parametrize(
    "question, topic, topic_types, steps",
    [
        ("Which films share a director with Red Fox?", "Red Fox", {"Film"}, [("directed by", 1), ("directed by", -1)]),
        ("Who co-starred with Ada Lind?", "Ada Lind", {"Person"}, [("stars", -1), ("stars", 1)]),
        ("Which movies did Ada Lind write?", "Ada Lind", {"Person"}, [("written by", -1)]),
        (
            "Who directed the films written by the writer of Red Fox?",
            "Red Fox",
            {"Film"},
            [("written by", 1), ("written by", -1), ("directed by", 1)],
        ),
        (
            "What genres are the films directed by Ada Lind?",
            "Ada Lind",
            {"Person"},
            [("directed by", -1), ("has genre", 1)],
        ),
        # a category noun, and a type named after "type of", ask for the category of the topic
        ("what type of film is red fox", "red fox", {"Film"}, [("has genre", 1)]),
        ("What kind of movie is Red Fox?", "Red Fox", {"Film"}, [("has genre", 1)]),
        # what a thing is about: its tags, also with no other content word
        ("what is Red Fox about?", "Red Fox", {"Film"}, [("has tags", 1)]),
        ("what words describe red fox", "red fox", {"Film"}, [("has tags", 1)]),
        ("which films are about heists?", "heists", {"Tag"}, [("has tags", -1)]),
        # "who made X": each of the verb's agent nouns is compared (the director), not only all of them at once
        ("who made red fox", "red fox", {"Film"}, [("directed by", 1)]),
        # "who's in X": those X has most of
        ("who's in red fox", "red fox", {"Film"}, [("stars", 1)]),
        # a relative clause after its noun ("the movies X acted in"): its verb is the step to the noun
        ("who directed the movies ada lind starred in", "ada lind", {"Person"}, [("stars", -1), ("directed by", 1)]),
        ("What genres are the films Ada Lind wrote?", "Ada Lind", {"Person"}, [("written by", -1), ("has genre", 1)]),
        ("who starred in the films ada lind directed", "ada lind", {"Person"}, [("directed by", -1), ("stars", 1)]),
    ],
)
def test_the_reader_follows_the_chain_the_question_names(embedder, question, topic, topic_types, steps):
    assert _steps(_schema(), embedder, question, topic, topic_types) == steps


def _music_schema() -> GraphSchema:
    """A property graph's schema as HubLink reads it: rel names as predicates, one read backwards into
    the hub type (Album -'artist'-> Artist)."""
    artist, album, city, label = (frozenset({t}) for t in ("Artist", "Album", "City", "Label"))
    rows = [
        Connection("recorded", artist, album, 118),
        Connection("artist", album, artist, 118),
        Connection("comes from", artist, city, 40),
        Connection("released on", album, label, 102),
        Connection("has genre", album, frozenset({"Genre"}), 156),
        Connection("year", album, frozenset({LITERAL}), 102),
    ]
    return GraphSchema({c.predicate: [c] for c in rows})


@pytest.mark.parametrize(
    "question, topic, topic_types, steps",
    [
        # a preposition that ends a predicate's label names it where nothing else does, or closing the question
        ("where is Iron Tides from", "Iron Tides", {"Artist"}, [("comes from", 1)]),
        ("which artists are from Austin", "Austin", {"City"}, [("comes from", -1)]),
        ("where is the artist of Light Distant from", "Light Distant", {"Album"}, [("artist", 1), ("comes from", 1)]),
        (
            "which labels has Iron Tides released albums on",
            "Iron Tides",
            {"Artist"},
            [("recorded", 1), ("released on", 1)],
        ),
        # a type after "same" is the shared value; the verb before it says the sharing once
        (
            "which artists come from the same city as velvet rivers",
            "velvet rivers",
            {"Artist"},
            [("comes from", 1), ("comes from", -1)],
        ),
        # the wh-phrase's type reached by the step a verb cannot take itself
        ("what albums has Iron Tides released", "Iron Tides", {"Artist"}, [("recorded", 1)]),
        # "who <verb> with X" with a verb no predicate names: who shares what X has most of
        ("who collaborated with Iron Tides", "Iron Tides", {"Artist"}, [("recorded", 1), ("recorded", -1)]),
        ("who did iron tides collaborate with", "iron tides", {"Artist"}, [("recorded", 1), ("recorded", -1)]),
        # two nouns after "which": the last is asked, the first qualifies it
        ("which record label is Road Light on", "Road Light", {"Album"}, [("released on", 1)]),
    ],
)
def test_prepositions_shared_types_and_unnamed_verbs_on_another_schema(embedder, question, topic, topic_types, steps):
    assert _steps(_music_schema(), embedder, question, topic, topic_types) == steps


def _company_schema() -> GraphSchema:
    company, person, city = frozenset({"Company"}), frozenset({"Person"}), frozenset({"City"})
    rows = [
        Connection("founded", company, frozenset({LITERAL}), 30),
        Connection("founder", company, person, 45),
        Connection("chief executive officer", company, person, 30),
        Connection("headquartered in", company, city, 30),
        Connection("born in", person, city, 45),
        Connection("industry", company, frozenset({"Industry"}), 30),
        Connection("product", company, frozenset({"Product"}), 60),
    ]
    return GraphSchema({c.predicate: [c] for c in rows})


@pytest.mark.parametrize(
    "question, topic, topic_types, steps",
    [
        # "who" asks for a person: the verb's agent noun, not a predicate of the same word holding a year
        ("who founded Harbor Systems", "Harbor Systems", {"Company"}, [("founder", 1)]),
        # of two predicates ending in "in", the one leading from the topic to the type asked
        ("which companies are based in Lagos", "Lagos", {"City"}, [("headquartered in", -1)]),
        # a wh-phrase noun that leaves the topic is the relation, the closing "in" nothing more
        ("what industry is Harbor Systems in", "Harbor Systems", {"Company"}, [("industry", 1)]),
        # plurals read as the label they are the plural of ("founders": founder, not founded), typos as
        # the graph's word ("compnies"), "co-" of what holds the relation as all of them
        ("founders of Harbor Systems", "Harbor Systems", {"Company"}, [("founder", 1)]),
        ("which compnies are based in Lagos", "Lagos", {"City"}, [("headquartered in", -1)]),
        ("who are the co-founders of Harbor Systems", "Harbor Systems", {"Company"}, [("founder", 1)]),
        ("who started Harbor Systems", "Harbor Systems", {"Company"}, [("founder", 1)]),
        # "what does X make" asks for what is made, "who made X" for the maker
        ("what does Harbor Systems make", "Harbor Systems", {"Company"}, [("product", 1)]),
        # the topic beside a type and nothing else: that type's entities next to it
        ("harbor systems products", "harbor systems", {"Company"}, [("product", 1)]),
    ],
)
def test_agents_and_prepositions_pick_among_predicates(embedder, question, topic, topic_types, steps):
    assert _steps(_company_schema(), embedder, question, topic, topic_types) == steps


def _drug_schema() -> GraphSchema:
    drug, disease = frozenset({"Drug"}), frozenset({"Disease"})
    rows = [
        Connection("treats", drug, disease, 27),
        Connection("side effect", drug, frozenset({"SideEffect"}), 36),
        Connection("manufacturer", drug, frozenset({"Company"}), 18),
        Connection("symptom", disease, frozenset({"Symptom"}), 26),
    ]
    return GraphSchema({c.predicate: [c] for c in rows})


@pytest.mark.parametrize(
    "question, topic, topic_types, steps",
    [
        # a verb no predicate names, where one predicate alone joins the type asked to the topic's
        ("which drugs can cause headache", "headache", {"SideEffect"}, [("side effect", -1)]),
        # "who makes X": the maker among the agent nouns of "make"
        ("who makes Ibuprofen", "Ibuprofen", {"Drug"}, [("manufacturer", 1)]),
    ],
)
def test_unnamed_verbs_between_two_types_joined_once(embedder, question, topic, topic_types, steps):
    assert _steps(_drug_schema(), embedder, question, topic, topic_types) == steps


def test_another_form_of_a_label_word_is_no_typo(embedder):
    """ "published" is no misspelt "publisher" (the same stem): only a word of another stem is corrected."""
    paper = frozenset({"Paper"})
    rows = [  # the shape of the scale benchmark's graph (`kgqa bench generate`)
        Connection("venue", paper, frozenset({"Venue"}), 49632),
        Connection("publisher", frozenset({"Venue"}), frozenset({LITERAL}), 90),
        Connection("author", paper, frozenset({"Author"}), 173521),
        Connection("keyword", paper, frozenset({LITERAL}), 74271),
        Connection("publication year", paper, frozenset({LITERAL}), 49632),
    ]
    schema = GraphSchema({c.predicate: [c] for c in rows})
    question = "At which venue was the paper 'Formal Repair' published?"
    assert _steps(schema, embedder, question, "Formal Repair", {"Paper"}) == [("venue", 1)]


def _papers_schema() -> GraphSchema:
    """The shape of the demo graph: papers with venues, years and authors, contributions with their
    evaluation method and datasets (a dataset is used by several contributions)."""
    paper, contribution = frozenset({"Paper"}), frozenset({"Contribution"})
    rows = [
        Connection("venue", paper, frozenset({"Venue"}), 35),
        Connection("publication year", paper, frozenset({LITERAL}), 35),
        Connection("author", paper, frozenset({"Person"}), 110),
        Connection("research field", paper, frozenset({"Field"}), 35),
        Connection("contribution", paper, contribution, 38),
        Connection("evaluation method", contribution, frozenset({"Method"}), 38),
        Connection("uses dataset", contribution, frozenset({"Dataset"}), 30),
    ]
    return GraphSchema({c.predicate: [c] for c in rows})


@pytest.mark.parametrize(
    "question, steps",
    [
        # the verb after the asked noun says its relation again: no step of its own (not the authors)
        ("what venue published graph queries at scale", [("venue", 1)]),
        ("which venue published graph queries at scale?", [("venue", 1)]),
        ("in which venue was graph queries at scale published", [("venue", 1)]),
        # ... and not a detour through the datasets that "used" resembles
        ("which evaluation method is used in graph queries at scale", [("contribution", 1), ("evaluation method", 1)]),
        # "where" asks for the verb's place, "when" for its time, "who" for its agent
        ("where was graph queries at scale published", [("venue", 1)]),
        ("when was graph queries at scale published", [("publication year", 1)]),
        ("who published graph queries at scale", [("author", 1)]),
    ],
)
def test_the_asked_noun_and_the_question_word_choose_what_a_verb_means(embedder, question, steps):
    assert _steps(_papers_schema(), embedder, question, "graph queries at scale", {"Paper"}) == steps


def test_a_when_question_never_ends_at_an_entity(embedder):
    reader = ChainReader(_music_schema(), embedder)
    question = "when did Light Distant come out"
    start = question.index("Light Distant")
    plan = reader.plan(question, (start, start + 13), {"Album"}, 4)
    assert plan is None or list(plan.steps) == [("year", 1)]
    question = "where does iron tides come from"  # "come" without "out" is no release
    start = question.index("iron tides")
    plan = reader.plan(question, (start, start + 10), {"Artist"}, 4)
    assert plan is not None and list(plan.steps) == [("comes from", 1)]


def test_gzip_files_load_like_their_plain_form(tmp_path: Path):
    plain = tmp_path / "g.csv"
    plain.write_text("subject,predicate,object\na,knows,b\nb,knows,c\n", encoding="utf-8")
    packed = tmp_path / "g.csv.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert detect_format(packed) == "csv" and detect_format(tmp_path / "x.nt.gz") == "nt"
    loader = get_loader("csv")
    same = [r for r in loader.records(plain) if isinstance(r, TripleRecord)]
    assert same and same == [r for r in loader.records(packed) if isinstance(r, TripleRecord)]
    nt = tmp_path / "g.nt.gz"
    nt.write_bytes(gzip.compress(b"<http://x/a> <http://x/p> <http://x/b> .\n"))
    assert len(list(get_loader("nt").records(nt))) >= 1
    broken = tmp_path / "bad.csv.gz"
    broken.write_bytes(gzip.compress(plain.read_bytes())[:-12])
    with pytest.raises(InputError, match="gzip"):
        list(loader.records(broken))


def test_uniform_hops_travels_from_the_options_to_the_parameters_and_back():
    params = params_from_options(AskOptions(uniform_hops=True, max_level=3))
    assert params.uniform_hop_count and params.max_retrieval_level == 3
    assert not params_from_options(AskOptions()).uniform_hop_count
    assert options_from_params(RetrievalParams(uniform_hop_count=True)).uniform_hops


def test_film_generator_is_seeded_and_its_answers_come_from_its_golden_triples(tmp_path: Path):
    a = generate_films(tmp_path / "a", 1_500, seed=2, questions=40)
    b = generate_films(tmp_path / "b", 1_500, seed=2, questions=40)
    assert a.graph_file.read_bytes() == b.graph_file.read_bytes()
    assert a.questions_file.read_bytes() == b.questions_file.read_bytes()
    with a.graph_file.open(encoding="utf-8", newline="") as fh:
        graph = list(csv.DictReader(fh))
    with a.questions_file.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["hops"] for r in rows} == {"1", "2", "3"} and len({r["form"] for r in rows}) > 20
    movies = {r["subject"] for r in graph}
    assert all(r["subject_types"] == "Movie" for r in graph) and len(movies) == a.papers
    for r in rows:
        answers = ast.literal_eval(r["answers"])
        golden = ast.literal_eval(r["golden_triples"])
        assert answers and answer_recall(golden, answers) == 1.0


def _property_graph_schema() -> GraphSchema:
    """Labels as a user's own rel tables read: verbs, and rels read backwards into the hub type."""
    movie, person = frozenset({"Movie"}), frozenset({"Person"})
    rows = [
        Connection("directed", person, movie, 40),
        Connection("acted in", person, movie, 120),
        Connection("person (directed)", movie, person, 40),
        Connection("person (acted in)", movie, person, 120),
        Connection("released", movie, frozenset({LITERAL}), 40),
    ]
    return GraphSchema({c.predicate: [c] for c in rows})


@pytest.mark.parametrize(
    "question, topic, topic_types, first",
    [
        # a verb with an agent noun reads as that noun, not as another verb ("starred" is not "directed")
        ("Who starred in Northern Signal?", "Northern Signal", {"Movie"}, "acted"),
        ("who played in northern signal", "northern signal", {"Movie"}, "acted"),
        ("Who directed Northern Signal?", "Northern Signal", {"Movie"}, "directed"),
    ],
)
def test_verbs_read_as_their_agent_on_a_property_graph(embedder, question, topic, topic_types, first):
    reader = ChainReader(_property_graph_schema(), embedder)
    start = question.index(topic)
    plan = reader.plan(question, (start, start + len(topic)), topic_types, 4)
    assert plan is not None and len(plan.steps) == 1 and first in plan.steps[0][0], plan


def test_from_a_value_the_verb_names_its_own_predicate(embedder):
    paper, person = frozenset({"Paper"}), frozenset({"Person"})
    rows = [Connection("author", paper, person, 90), Connection("publication year", paper, frozenset({LITERAL}), 30)]
    reader = ChainReader(GraphSchema({c.predicate: [c] for c in rows}), embedder)
    # "published" is read as its agent ("author") from a paper, but from a year it is the year's predicate
    question = "Which papers were published in 2021?"
    start = question.index("2021")
    plan = reader.plan(question, (start, start + 4), {LITERAL}, 4)
    assert plan is not None and plan.steps == (("publication year", -1),), plan
    question = "Who published 'Graph Queries at Scale'?"
    start = question.index("Graph")
    plan = reader.plan(question, (start, start + 20), {"Paper"}, 4)
    assert plan is not None and plan.steps == (("author", 1),), plan


def test_a_rel_read_backwards_is_written_with_its_verb():
    from kgqa.retrieval.chains import _chain_sentence

    assert _chain_sentence((("person (acted in)", 1),), "Northern Signal", "Mei Lindqvist [1]", 1) == (
        "Mei Lindqvist [1] acted in 'Northern Signal'."
    )
    assert _chain_sentence((("person (acted in)", -1),), "Mei Lindqvist", "Salt and Cedar [1]", 1) == (
        "'Mei Lindqvist' acted in Salt and Cedar [1]."
    )
    # machine-style labels are written as people say them ("directed_by": director)
    assert _chain_sentence((("directed_by", 1),), "Golden Mirror", "Ulla Berg [1]", 1) == (
        "The director of 'Golden Mirror' is Ulla Berg [1]."
    )
    # several subjects take the verb's plural
    assert _chain_sentence((("comes from", -1),), "Austin", "Nova Wolves [1] and Echo Signals [2]", 2) == (
        "Nova Wolves [1] and Echo Signals [2] come from 'Austin'."
    )


@pytest.mark.parametrize(
    "predicate, phrase",
    [
        ("author", " with author Ada Lind"),
        ("directed_by", " with director Ada Lind"),
        ("directed by", " directed by Ada Lind"),
        ("has tags", " with tags Ada Lind"),
        ("won", " that won Ada Lind"),
        ("acted in", " that acted in Ada Lind"),
    ],
)
def test_ranked_ends_are_named_by_the_relation_back_to_the_topic(predicate, phrase):
    from kgqa.retrieval.chains import _reached_phrase

    assert _reached_phrase(((predicate, -1),), "Ada Lind") == phrase
    assert _reached_phrase(((predicate, 1), ("year", 1)), "Ada Lind").startswith(" reached from Ada Lind (")


_EVIDENCE = """
import json
from kgqa.retrieval.chains.follow import ChainResult
from kgqa.types import Entity, Triple

topic = Entity("T", "topic")
mids = [Entity(f"M{i}", f"middle {i}") for i in range(9)]
end = Entity("E", "end")
first = {m.id: [Triple(topic, "p", m)] for m in mids}
last = {"E": [Triple(m, "q", end) for m in mids]}
result = ChainResult((("p", 1), ("q", 1)), [topic], [end], reached_by=[first, last])
print(json.dumps([t.canonical for t in result.evidence("E")]))
"""


def test_a_chains_evidence_is_the_same_in_every_process():
    """Which of an end's many paths are cited must not follow Python's per-process string hashing."""
    import os
    import subprocess
    import sys

    outputs = {
        subprocess.run(
            [sys.executable, "-c", _EVIDENCE],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(6)
    }
    assert len(outputs) == 1, outputs
