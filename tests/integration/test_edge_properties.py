"""A film cast kept in Kùzu whose edges carry properties of their own (`ACTED_IN {role, billing}`,
`PRODUCED_BY {budget}`), written with Cypher and indexed in place with the films as hubs, then asked as
people type: the role an actor played, who played a role, a film's budget. Expected answers are computed
from the rows here. Real Kùzu, real MiniLM, offline mode."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from graph_rows import written_with_cypher
from test_own_graph_domains import ask
from test_own_graph_named_by_keys import made_and_indexed

from kgqa.api import Workspace
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.errors import ConfigError
from kgqa.graph.mapping import MappingFile, infer_mapping
from kgqa.llm.render import render_fact

#: title, studio, budget (million USD), cast as (actor, role)
FILMS = [
    ("The Matrix", "Warner Bros", 63, [("Keanu Reeves", "Neo"), ("Hugo Weaving", "Agent Smith")]),
    ("Speed", "20th Century Fox", 30, [("Keanu Reeves", "Jack Traven"), ("Sandra Bullock", "Annie Porter")]),
    ("Gravity", "Warner Bros", 100, [("Sandra Bullock", "Ryan Stone"), ("George Clooney", "Matt Kowalski")]),
    ("V for Vendetta", "Warner Bros", 54, [("Hugo Weaving", "V"), ("Natalie Portman", "Evey Hammond")]),
    ("Fight Club", "20th Century Fox", 63, [("Brad Pitt", "Tyler Durden"), ("Edward Norton", "The Narrator")]),
    (  # one actor, two edges to one film (parallel edges)
        "Dr. Strangelove",
        "Columbia Pictures",
        2,
        [
            ("Peter Sellers", "Lionel Mandrake"),
            ("Peter Sellers", "Merkin Muffley"),
            ("George C. Scott", "Buck Turgidson"),
        ],
    ),
]

RELEASED = {
    "The Matrix": 1999,
    "Speed": 1994,
    "Gravity": 2013,
    "V for Vendetta": 2005,
    "Fight Club": 1999,
    "Dr. Strangelove": 1964,
}


def cast_statements() -> list[tuple[str, dict]]:
    """The Cypher that writes the cast's database, with its parameters."""
    out: list[tuple[str, dict]] = [
        (ddl, {})
        for ddl in (
            "CREATE NODE TABLE Movie(title STRING PRIMARY KEY, released INT64)",
            "CREATE NODE TABLE Person(name STRING PRIMARY KEY)",
            "CREATE NODE TABLE Studio(name STRING PRIMARY KEY)",
            "CREATE REL TABLE ACTED_IN(FROM Person TO Movie, role STRING, billing INT64)",
            "CREATE REL TABLE PRODUCED_BY(FROM Movie TO Studio, budget DOUBLE)",
        )
    ]
    people = sorted({a for f in FILMS for a, _ in f[3]})
    out += [("CREATE (:Person {name: $n})", {"n": n}) for n in people]
    out += [("MERGE (:Studio {name: $n})", {"n": f[1]}) for f in FILMS]
    for title, studio, budget, cast in FILMS:
        out.append(("CREATE (:Movie {title: $t, released: $y})", {"t": title, "y": RELEASED[title]}))
        out.append(
            (
                "MATCH (m:Movie {title: $t}), (s:Studio {name: $s}) CREATE (m)-[:PRODUCED_BY {budget: $b}]->(s)",
                {"t": title, "s": studio, "b": float(budget)},
            )
        )
        for billing, (actor, role) in enumerate(cast, start=1):
            out.append(
                (
                    "MATCH (p:Person {name: $p}), (m:Movie {title: $t}) "
                    "CREATE (p)-[:ACTED_IN {role: $r, billing: $b}]->(m)",
                    {"p": actor, "t": title, "r": role, "b": billing},
                )
            )
    return out


def make_cast(path: Path) -> None:
    """The cast's own database, written with Cypher."""
    written_with_cypher(path, cast_statements())


@pytest.fixture(scope="module")
def cast(tmp_path_factory, embedder) -> Iterator[Workspace]:
    yield from made_and_indexed(tmp_path_factory, "cast", make_cast, "Movie", embedder)


def roles_of(actor: str) -> list[str]:
    return sorted(role for f in FILMS for a, role in f[3] if a == actor)


def test_the_role_an_actor_played_in_a_film(cast):
    """Both ends of an edge named: what the edge itself says, cited from the film's hub."""
    items, text, result = ask(cast, "what role did keanu reeves play in the matrix")
    assert items == ["Neo"], text
    assert text == "Keanu Reeves acted in 'The Matrix' with role Neo [1].", text
    assert result["edges"] == [
        {"triple": "(Keanu Reeves, acted in, The Matrix)", "qualifiers": {"role": "Neo", "billing": "1"}}
    ]
    items, text, _ = ask(cast, "which character did brad pit play in fight club")  # a typo in the name
    assert items == ["Tyler Durden"], text
    answer = cast.ask("who did sandra bullock play in gravity")  # the default strategy too
    assert "Ryan Stone" in answer.answer and "Annie Porter" not in answer.answer, answer.answer
    assert "(Sandra Bullock, acted in, Gravity) {role: Ryan Stone, billing: 1}" in answer.triples, answer.triples


def test_every_role_of_one_actor(cast):
    items, text, _ = ask(cast, "what roles did hugo weaving play")
    assert items == roles_of("Hugo Weaving"), text
    assert "'The Matrix'" in text and "'V for Vendetta'" in text, text
    items, text, _ = ask(cast, "which roles did peter sellers play in dr strangelove")  # two edges, one film
    assert items == roles_of("Peter Sellers"), text
    _, text, result = ask(cast, "how many roles did keanu reeves play")  # counted, each said
    assert (result["operation"], result["value"]) == ("count", len(roles_of("Keanu Reeves"))), text
    assert text.startswith("Two roles (2): Keanu Reeves acted in"), text


def test_who_played_a_role_named_by_its_value(cast):
    """The role written in the question picks the edge; its other end is the answer, with or without
    the film named, also where the relation chain reads "played in" as the film's actors."""
    items, text, _ = ask(cast, "who played agent smith")
    assert items == ["Hugo Weaving"], text
    answer = cast.ask("who played neo in the matrix")
    assert answer.result["items"] == ["Keanu Reeves"], answer.answer
    assert "Hugo Weaving" not in answer.answer and answer.strategy == "edge", answer.answer
    items, text, _ = ask(cast, "who played the narrator in fight club")
    assert items == ["Edward Norton"], text


def test_a_number_on_the_edge_to_another_entity(cast):
    """ "what was the budget of gravity": the budget is on Gravity's edge to its studio."""
    items, text, _ = ask(cast, "what was the budget of gravity")
    assert items == ["100"], text
    assert text.startswith("'Gravity' is produced by Warner Bros with budget 100 [1]"), text
    items, text, _ = ask(cast, "who has billing 1 in speed")  # a number of the qualifier named picks the edge
    assert items == ["Keanu Reeves"], text


def test_questions_about_the_entities_are_left_to_the_other_readers(cast):
    """No property named, no value of one written, one end named: the usual answers, counts included."""
    items, text, _ = ask(cast, "who acted in the matrix")
    assert items == ["Hugo Weaving", "Keanu Reeves"], text
    assert "role" not in text, text
    items, text, _ = ask(cast, "who acted in dr strangelove")  # an actor with two roles named once
    assert items == ["George C. Scott", "Peter Sellers"], text
    items, text, _ = ask(cast, "how many movies did keanu reeves act in")
    assert items == ["2"] or "two" in text.lower() or "2" in text, text
    assert "role" not in text, text
    answer = cast.ask("did keanu reeves act in speed", RetrievalParams(strategy="direct"))
    assert answer.answer.startswith("Yes"), answer.answer


def test_the_edges_properties_are_in_the_path_texts_and_their_hash(tmp_path, embedder):
    """The path text says the role; a role changed through the user's own connection rebuilds that
    film's hub, and only that one."""
    path = tmp_path / "cast.kuzu"
    make_cast(path)
    ws = Workspace(Settings(db_path=path), embedder=embedder)
    try:
        ws.build_index(IndexParams(hub_types=("Movie",)))
        texts = [r[0] for r in ws.store.query("MATCH (p:kgqa_HubPath) RETURN p.text")[1]]
        assert any("'Keanu Reeves' (role 'Neo', billing '1')" in t for t in texts), texts[:5]
        stored = [t for h in ws.vstore.hub_records(["The Matrix"]) for p in h.paths for t in p.triples]
        keanu = next(t for t in stored if t.object.id == "Keanu Reeves")  # what an LLM is shown, too
        assert render_fact(keanu, "The Matrix") == "actor: Keanu Reeves (role: Neo, billing: 1)"
    finally:
        ws.close()
    written_with_cypher(
        path,
        [
            (
                "MATCH (:Person {name: 'Keanu Reeves'})-[r:ACTED_IN]->(:Movie {title: 'Speed'}) SET r.role = $r",
                {"r": "Jack"},
            )
        ],
    )
    ws = Workspace(Settings(db_path=path), embedder=embedder)
    try:
        assert ws.update_index().rebuilt_ids == ["Speed"]
        assert "role Jack [1]" in ws.ask("what role did keanu reeves play in speed").answer
    finally:
        ws.close()


def test_the_mapping_names_and_excludes_edge_properties(cast):
    inferred = infer_mapping(cast.store)
    assert [name for _, name in inferred.rels["ACTED_IN"].properties] == ["role", "billing"]
    assert "  role -> qualifier 'role' of each edge" in inferred.describe()
    spec = MappingFile.from_dict({"rels": {"ACTED_IN": {"exclude": ["billing"], "properties": {"role": "character"}}}})
    shaped = infer_mapping(cast.store, spec)
    assert [name for _, name in shaped.rels["ACTED_IN"].properties] == ["character"]
    with pytest.raises(ConfigError, match="rels.ACTED_IN"):
        infer_mapping(cast.store, MappingFile.from_dict({"rels": {"ACTED_IN": {"exclude": "billing"}}}))


#: employee, company, since, job title
JOBS = [
    ("Ann Lee", "Acme", 2015, "Data Engineer"),
    ("Carol Diaz", "Acme", 2021, "Designer"),
    ("Bob Stone", "Initech", 2019, "Product Manager"),
    ("Eve Park", "Initech", 2015, "Data Scientist"),
]
#: employee, course, grade
TOOK = [("Ann Lee", "Databases", "A"), ("Bob Stone", "Databases", "B"), ("Ann Lee", "Statistics", "B+")]


def make_jobs(path: Path) -> None:
    """Employees, companies and courses: `WORKS_AT {since, job_title}`, `TOOK {grade}`."""
    out: list[tuple[str, dict]] = [
        ("CREATE NODE TABLE Company(name STRING PRIMARY KEY)", {}),
        ("CREATE NODE TABLE Employee(name STRING PRIMARY KEY)", {}),
        ("CREATE NODE TABLE Course(name STRING PRIMARY KEY)", {}),
        ("CREATE REL TABLE WORKS_AT(FROM Employee TO Company, since INT64, job_title STRING)", {}),
        ("CREATE REL TABLE TOOK(FROM Employee TO Course, grade STRING)", {}),
    ]
    out += [("MERGE (:Company {name: $n})", {"n": j[1]}) for j in JOBS]
    out += [("CREATE (:Employee {name: $n})", {"n": j[0]}) for j in JOBS]
    out += [("MERGE (:Course {name: $n})", {"n": t[1]}) for t in TOOK]
    for name, company, since, title in JOBS:
        out.append(
            (
                "MATCH (e:Employee {name: $e}), (c:Company {name: $c}) "
                "CREATE (e)-[:WORKS_AT {since: $s, job_title: $t}]->(c)",
                {"e": name, "c": company, "s": since, "t": title},
            )
        )
    for name, course, grade in TOOK:
        out.append(
            (
                "MATCH (e:Employee {name: $e}), (c:Course {name: $c}) CREATE (e)-[:TOOK {grade: $g}]->(c)",
                {"e": name, "c": course, "g": grade},
            )
        )
    written_with_cypher(path, out)


@pytest.fixture(scope="module")
def jobs(tmp_path_factory, embedder) -> Iterator[Workspace]:
    yield from made_and_indexed(tmp_path_factory, "jobs", make_jobs, "Company", embedder)


def test_a_year_on_the_edge_said_with_its_preposition(jobs):
    """A qualifier named by a preposition ("since") reads before its value, not "with since 2015"; "when"
    asks for the year-like one; a year written picks the edges that hold it."""
    _, text, _ = ask(jobs, "when did ann lee join acme")
    assert text == "Ann Lee works at 'Acme' since 2015 [1].", text
    items, text, _ = ask(jobs, "who has worked at acme since 2015")
    assert items == ["Ann Lee"], text  # not Carol Diaz (2021)
    items, text, _ = ask(jobs, "what is carol diaz's job title")
    assert items == ["Designer"] and "with job title Designer" in text, text
    items, text, _ = ask(jobs, "who is the data scientist at initech")
    assert items == ["Eve Park"], text


def test_an_irregular_past_names_the_edge_as_a_verb(jobs):
    """`TOOK` reads as the verb it is: "Ann Lee took Databases", never "the took of"."""
    items, text, _ = ask(jobs, "what grade did ann lee get in databases")
    assert items == ["A"] and text.startswith("Ann Lee took Databases with grade A"), text
    answer = jobs.ask("what courses did ann lee take")
    assert "took Databases" in answer.answer and "tooks" not in answer.answer, answer.answer


def test_how_two_named_things_are_related_is_the_link_reading(cast):
    """ "how is X related to Y" is answered by how they are linked, not by a relation chain from X that
    reads "related" as one of X's relations (it said the years of X's films)."""
    answer = cast.ask("how is keanu reeves related to speed")
    assert answer.strategy != "chain" and "linked directly" in answer.answer, answer.answer
    # the edge once, forwards, with what it says (not again as "the actor of 'Speed' is Keanu Reeves")
    assert answer.answer.endswith(": Keanu Reeves acted in 'Speed' (role Jack Traven, billing 1)."), answer.answer
    _, text, _ = ask(cast, "what do keanu reeves and sandra bullock have in common")
    assert "both acted in 'Speed'" in text, text  # an active verb, not "both are acted in"
