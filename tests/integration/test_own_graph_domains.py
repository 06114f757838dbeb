"""Two users' own Kùzu graphs (node and rel tables made with Cypher, indexed in place), asked as people
type. An org chart with the employees as hubs: two relations of one verb that differ in their
preposition ("works in" a department, "works on" a project), a relation from employees to employees
("reports to"), the hub's own hiring date beside the start dates of its projects, salaries named by a
verb ("earns more than"), groups named by the type of their values ("which department"), averages and
totals. A film graph with the *people* as hubs (`--hub-type Person`): the films are values of three
relations at once (acted in, directed, wrote), so a question's noun ("movies", "films") names their
type and its verb picks the relation; a film's year asked with "when ... released" where the property
is called `year`. Expected answers are computed from the rows here. Real Kùzu, real MiniLM, offline
mode, direct strategy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from statistics import fmean

import kuzu
import pytest
from test_own_graph_named_by_keys import made_and_indexed

from kgqa.api import Workspace
from kgqa.config import RetrievalParams

DEPARTMENTS = {"d1": "Engineering", "d2": "Sales", "d3": "Finance", "d4": "Research"}
BUDGET = {"d1": 4_200_000, "d2": 1_800_000, "d3": 900_000, "d4": 2_500_000}
#: project id, name, start date, owning department
PROJECTS = [
    ("p1", "Apollo", "2021-03-01", "d1"),
    ("p2", "Borealis", "2022-06-15", "d4"),
    ("p3", "Ledger Rewrite", "2020-09-01", "d3"),
    ("p4", "Northwind Deal", "2024-01-05", "d2"),
]
#: id, name, title, salary, hired, city, department, manager, projects
EMPLOYEES = [
    ("e1", "Alice Brandt", "Chief Executive Officer", 190000, "2012-03-13", "Berlin", "d1", None, ["p1"]),
    ("e2", "Bob Okafor", "Head of Sales", 160000, "2013-09-04", "Toronto", "d2", "e1", ["p4"]),
    ("e3", "Carla Mendes", "Head of Finance", 150000, "2021-01-17", "Lisbon", "d3", "e1", ["p3"]),
    ("e4", "Elena Petrova", "Head of Research", 170000, "2013-04-03", "Oslo", "d4", "e1", ["p2"]),
    ("e5", "Farid Haddad", "Software Engineer", 109000, "2014-10-04", "Lisbon", "d1", "e1", ["p1"]),
    ("e6", "Kira Novak", "Software Engineer", 78000, "2013-10-19", "Lisbon", "d1", "e1", ["p1", "p3"]),
    ("e7", "Zoe Laurent", "Software Engineer", 57000, "2019-06-06", "Oslo", "d1", "e1", ["p1"]),
    ("e8", "Greta Lind", "Account Executive", 135000, "2022-10-02", "Oslo", "d2", "e2", ["p4"]),
    ("e9", "Luis Ortega", "Account Executive", 102000, "2013-09-23", "Berlin", "d2", "e2", ["p4", "p1"]),
    ("e10", "Vera Holm", "Account Executive", 131000, "2019-10-26", "Berlin", "d2", "e2", ["p4"]),
    ("e11", "Hiro Sato", "Accountant", 129000, "2018-01-08", "Berlin", "d3", "e3", ["p3", "p4"]),
    ("e12", "Mara Quint", "Accountant", 127000, "2013-10-07", "Berlin", "d3", "e3", ["p3"]),
    ("e13", "Wim de Vries", "Accountant", 63000, "2024-05-16", "Toronto", "d3", "e3", ["p3"]),
    ("e14", "Jonas Berg", "Research Scientist", 124000, "2016-10-10", "Oslo", "d4", "e4", ["p2"]),
    ("e15", "Tara Nolan", "Research Scientist", 108000, "2012-11-03", "Oslo", "d4", "e4", ["p2", "p4"]),
    ("e16", "Nils Ahlgren", "Software Engineer", 86000, "2023-12-10", "Toronto", "d1", "e1", ["p1"]),
]


def make_org_chart(path: Path) -> None:
    """The user's own database: four node tables' worth of an org chart, written with Cypher."""
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    conn.execute(
        "CREATE NODE TABLE Employee(id STRING PRIMARY KEY, name STRING, title STRING, salary INT64, hired DATE, city STRING)"
    )
    conn.execute("CREATE NODE TABLE Department(id STRING PRIMARY KEY, name STRING, budget INT64)")
    conn.execute("CREATE NODE TABLE Project(id STRING PRIMARY KEY, name STRING, started DATE)")
    conn.execute("CREATE REL TABLE REPORTS_TO(FROM Employee TO Employee)")
    conn.execute("CREATE REL TABLE WORKS_IN(FROM Employee TO Department)")
    conn.execute("CREATE REL TABLE WORKS_ON(FROM Employee TO Project)")
    conn.execute("CREATE REL TABLE OWNED_BY(FROM Project TO Department)")
    for key, name in DEPARTMENTS.items():
        conn.execute(
            "CREATE (:Department {id: $id, name: $name, budget: $b})", {"id": key, "name": name, "b": BUDGET[key]}
        )
    for key, name, started, owner in PROJECTS:
        conn.execute(
            "CREATE (:Project {id: $id, name: $name, started: date($s)})", {"id": key, "name": name, "s": started}
        )
        conn.execute(
            "MATCH (p:Project {id: $p}), (d:Department {id: $d}) CREATE (p)-[:OWNED_BY]->(d)", {"p": key, "d": owner}
        )
    for key, name, title, salary, hired, city, dept, _, _ in EMPLOYEES:
        conn.execute(
            "CREATE (:Employee {id: $id, name: $name, title: $title, salary: $salary, hired: date($hired), city: $city})",
            {"id": key, "name": name, "title": title, "salary": salary, "hired": hired, "city": city},
        )
        conn.execute(
            "MATCH (e:Employee {id: $e}), (d:Department {id: $d}) CREATE (e)-[:WORKS_IN]->(d)", {"e": key, "d": dept}
        )
    for key, *_, manager, projects in EMPLOYEES:
        if manager:
            conn.execute(
                "MATCH (a:Employee {id: $a}), (b:Employee {id: $b}) CREATE (a)-[:REPORTS_TO]->(b)",
                {"a": key, "b": manager},
            )
        for p in projects:
            conn.execute(
                "MATCH (e:Employee {id: $e}), (p:Project {id: $p}) CREATE (e)-[:WORKS_ON]->(p)", {"e": key, "p": p}
            )
    conn.close()
    db.close()


@pytest.fixture(scope="module")
def org(tmp_path_factory, embedder) -> Iterator[Workspace]:
    yield from made_and_indexed(tmp_path_factory, "org", make_org_chart, "Employee", embedder)


def ask(ws: Workspace, question: str) -> tuple[list[str], str, dict]:
    a = ws.ask(question, RetrievalParams(strategy="direct"))
    result = a.result or {}
    items = result.get("items") or ([result["value"]] if result.get("value") is not None else [])
    return sorted(str(i) for i in items), a.answer, result


def names(rows) -> list[str]:
    return sorted(e[1] for e in rows)


def test_two_relations_of_one_verb_are_told_apart_by_their_preposition(org):
    """ "works in" a department and "works on" a project: "work" alone is near both labels."""
    _, text, _ = ask(org, "who works on apollo")
    on_apollo = names(e for e in EMPLOYEES if "p1" in e[8])
    assert all(n in text for n in on_apollo), text
    assert "Engineering" not in text, text
    _, text, _ = ask(org, "which projects does luis ortega work on")
    assert "Northwind Deal" in text and "Apollo" in text and "Sales" not in text, text
    _, text, _ = ask(org, "who works in the finance department")
    in_finance = names(e for e in EMPLOYEES if e[6] == "d3")
    assert all(n in text for n in in_finance) and "Ledger Rewrite" not in text, text


def test_the_hubs_own_date_named_by_the_verb(org):
    """ "hired" (the employee's own date), not "started" (the projects' dates, stated more often)."""
    items, text, _ = ask(org, "which employees were hired after 2020")
    assert items == names(e for e in EMPLOYEES if e[4] > "2021"), text
    assert "hired after 2020" in text, text
    items, text, result = ask(org, "how many employees were hired in 2013")
    hired_2013 = [e for e in EMPLOYEES if e[4].startswith("2013")]
    assert result.get("value") == len(hired_2013), text
    assert "were hired in 2013" in text, text


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("who was hired most recently", [max(EMPLOYEES, key=lambda e: e[4])[1]]),
        ("which employee was hired first", [min(EMPLOYEES, key=lambda e: e[4])[1]]),
        ("which two employees were hired first", [e[1] for e in sorted(EMPLOYEES, key=lambda e: e[4])[:2]]),
        ("who has the highest salary", [max(EMPLOYEES, key=lambda e: e[3])[1]]),
        ("who has the lowest salary", [min(EMPLOYEES, key=lambda e: e[3])[1]]),
        ("which 3 employees have the highest salaries", [e[1] for e in sorted(EMPLOYEES, key=lambda e: -e[3])[:3]]),
        ("who earns the least", [min(EMPLOYEES, key=lambda e: e[3])[1]]),
        ("which 2 employees earn the most", [e[1] for e in sorted(EMPLOYEES, key=lambda e: -e[3])[:2]]),
    ],
)
def test_the_first_hubs_by_a_date_or_a_number(org, question, expected):
    items, text, _ = ask(org, question)
    assert items == sorted(expected), text


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("which employees earn more than 130000", lambda e: e[3] > 130000),
        ("who makes less than 80000", lambda e: e[3] < 80000),
        ("how many people earn over 130000", lambda e: e[3] > 130000),
    ],
)
def test_a_verb_names_the_number_compared(org, question, kept):
    """ "earn" / "make" compare the salary each employee states (was read as a comparison of two sides)."""
    items, text, result = ask(org, question)
    wanted = names(e for e in EMPLOYEES if kept(e))
    if question.startswith("how many"):
        assert result.get("value") == len(wanted), text
    else:
        assert items == wanted, text
    assert "salary" in text, text


def test_a_comparison_naming_nothing_stated_writes_no_placeholder(org):
    _, text, _ = ask(org, "who works more than 40")
    assert "side" not in text and "''" not in text, text


def test_groups_named_by_the_type_of_their_values(org):
    """ "department" names no attribute; the values of "works in" are Departments."""
    per_department = Counter(DEPARTMENTS[e[6]] for e in EMPLOYEES)
    top = per_department.most_common(1)[0]
    items, text, _ = ask(org, "which department has the most employees")
    assert items == [top[0]], text
    assert text.startswith(f"The department with the most employees is {top[0]}: {top[1]}"), text
    _, text, result = ask(org, "how many employees per department")
    assert result.get("groups") == dict(per_department), text
    _, text, result = ask(org, "how many employees does each department have")
    assert result.get("groups") == dict(per_department), text
    _, text, result = ask(org, "rank the departments by number of employees")
    assert result.get("items")[0] == top[0] and result.get("groups") == dict(per_department), text
    items, text, _ = ask(org, "which departments have more than 3 employees")
    assert items == sorted(d for d, n in per_department.items() if n > 3), text


def test_counts_of_what_points_at_a_hub(org):
    """ "how many people report to X": X's reports, in the other employees' hubs, not X's own manager."""
    reports = names(e for e in EMPLOYEES if e[7] == "e3")
    _, text, _ = ask(org, "how many people report to carla mendes")
    assert text.startswith(f"Three ({len(reports)})") and all(n in text for n in reports), text
    assert "Alice Brandt" not in text, text


def test_yes_or_no_between_two_people_by_the_relation_named(org):
    """Two names, no "and" between them: both are linked; the verb names the relation asked, so a link
    through a shared project is no "yes"."""
    _, text, result = ask(org, "does hiro sato report to carla mendes")
    assert result.get("value") == "yes" and "reports to" in text, text
    _, text, result = ask(org, "does hiro sato report to bob okafor")
    assert result.get("value") == "no", text


def test_a_role_noun_names_the_relation_whose_object_it_is(org):
    """ "manager" is no word of any label: the one "reports to" names as its object (was the city)."""
    _, text, _ = ask(org, "who is the manager of hiro sato")
    assert "Carla Mendes" in text and "Berlin" not in text, text
    _, text, _ = ask(org, "who is the manager of hiro sato's manager")
    assert "Alice Brandt" in text and "Carla Mendes" not in text, text


def test_how_many_typed_short(org):
    reports = names(e for e in EMPLOYEES if e[7] == "e2")
    _, text, _ = ask(org, "how mny people report to bob okafor")
    assert f"({len(reports)})" in text and all(n in text for n in reports), text


def test_sharing_a_value_named_by_its_type(org):
    mara = next(e for e in EMPLOYEES if e[1] == "Mara Quint")
    _, text, _ = ask(org, "who works in the same department as mara quint")
    same = names(e for e in EMPLOYEES if e[6] == mara[6] and e is not mara)
    assert all(n in text for n in same) and "Ledger Rewrite" not in text, text
    luis = next(e for e in EMPLOYEES if e[1] == "Luis Ortega")
    _, text, _ = ask(org, "which employees share a project with luis ortega")
    shared = names(e for e in EMPLOYEES if set(e[8]) & set(luis[8]) and e is not luis)
    assert all(n in text for n in shared), text


def test_averages_and_totals_over_the_whole_graph(org):
    engineering = [e[3] for e in EMPLOYEES if e[6] == "d1"]
    _, text, result = ask(org, "what is the average salary in engineering")
    assert result.get("value") == round(fmean(engineering), 4), text
    assert "Engineering" in text and f"({len(engineering)})" in text, text
    research = [e[3] for e in EMPLOYEES if e[6] == "d4"]
    _, text, result = ask(org, "what is the total salary of the research department")
    assert result.get("value") == sum(research), text
    _, text, result = ask(org, "what is the total budget of all departments")
    assert result.get("value") == sum(BUDGET.values()), text  # each department once, not once per employee
    _, text, result = ask(org, "what is the average number of projects per employee")
    assert result.get("value") == round(fmean(len(e[8]) for e in EMPLOYEES), 4), text
    assert "number of projects" in text, text


def test_a_value_in_the_plural_names_the_hubs_holding_it(org):
    """ "software engineers" is the title Software Engineer, not the department Engineering."""
    items, text, _ = ask(org, "who are the software engineers")
    assert items == names(e for e in EMPLOYEES if e[2] == "Software Engineer"), text
    items, text, _ = ask(org, "which accountants live in berlin")
    assert items == names(e for e in EMPLOYEES if e[2] == "Accountant" and e[5] == "Berlin"), text


# The film graph with the people as hubs.

YEAR = {"Moon Iron": 2001, "Quiet Echo": 1994, "River Lantern": 2012, "Paper Tide": 2008, "Glass Harbor": 2019}
DIRECTED = [("Olga Kowal", "Moon Iron"), ("Olga Kowal", "Quiet Echo"), ("Olga Kowal", "River Lantern")]
DIRECTED += [("Sven Holm", "Paper Tide"), ("Sven Holm", "Glass Harbor")]
WROTE = [("Nils Dunmore", "Moon Iron"), ("Nils Dunmore", "Paper Tide"), ("Olga Kowal", "Glass Harbor")]
WROTE += [("Clara Brandt", "Quiet Echo"), ("Clara Brandt", "River Lantern")]
ACTED = [("Clara Brandt", "Moon Iron"), ("Clara Brandt", "Paper Tide"), ("Clara Brandt", "Glass Harbor")]
ACTED += [("Nils Dunmore", "Quiet Echo"), ("Nils Dunmore", "Glass Harbor"), ("Bruno Eskola", "River Lantern")]
ACTED += [("Bruno Eskola", "Moon Iron"), ("Sven Holm", "Quiet Echo")]


def make_people_films(path: Path) -> None:
    """The user's graph: films and people, the people's edges pointing at the films."""
    db = kuzu.Database(str(path))
    conn = kuzu.Connection(db)
    conn.execute("CREATE NODE TABLE Movie(title STRING PRIMARY KEY, year INT64)")
    conn.execute("CREATE NODE TABLE Person(name STRING PRIMARY KEY)")
    for rel in ("ACTED_IN", "DIRECTED", "WROTE"):
        conn.execute(f"CREATE REL TABLE {rel}(FROM Person TO Movie)")
    for title, year in YEAR.items():
        conn.execute("CREATE (:Movie {title: $t, year: $y})", {"t": title, "y": year})
    for person in sorted({p for p, _ in DIRECTED + WROTE + ACTED}):
        conn.execute("CREATE (:Person {name: $n})", {"n": person})
    for rel, pairs in (("DIRECTED", DIRECTED), ("WROTE", WROTE), ("ACTED_IN", ACTED)):
        for person, film in pairs:
            conn.execute(
                f"MATCH (p:Person {{name: $p}}), (m:Movie {{title: $t}}) CREATE (p)-[:{rel}]->(m)",
                {"p": person, "t": film},
            )
    conn.close()
    db.close()


@pytest.fixture(scope="module")
def people(tmp_path_factory, embedder) -> Iterator[Workspace]:
    yield from made_and_indexed(tmp_path_factory, "people", make_people_films, "Person", embedder)


@pytest.mark.parametrize(
    ("question", "pairs", "person"),
    [
        ("how many movies did olga kowal direct", DIRECTED, "Olga Kowal"),
        ("how many films has nils dunmore written", WROTE, "Nils Dunmore"),
        ("how many movies did clara brandt act in", ACTED, "Clara Brandt"),
    ],
)
def test_the_noun_names_the_values_type_and_the_verb_the_relation(people, question, pairs, person):
    films = sorted(f for p, f in pairs if p == person)
    items, text, result = ask(people, question)
    assert result.get("value") == len(films) and items == films, text
    assert "movies" in text or "films" in text, text


@pytest.mark.parametrize(
    ("question", "pairs"),
    [("who directed the most movies", DIRECTED), ("who acted in the most films", ACTED)],
)
def test_the_people_with_the_most_films_of_one_relation(people, question, pairs):
    counts = Counter(p for p, _ in pairs)
    top = max(counts.values())
    items, text, _ = ask(people, question)
    assert items == sorted(p for p, n in counts.items() if n == top), text


def test_a_threshold_on_the_films_of_one_relation(people):
    counts = Counter(p for p, _ in ACTED)
    items, text, _ = ask(people, "which people acted in more than 2 movies")
    assert items == sorted(p for p, n in counts.items() if n > 2), text


def test_the_people_of_a_film_or_of_films_with_a_value(people):
    """ "how many people acted in X": the people, counted (was three films counted, the composer's sentence
    kept for its number); "which people directed movies from 2001 on": along "directed", not "acted in"."""
    cast = sorted(p for p, f in ACTED if f == "Quiet Echo")
    items, text, result = ask(people, "how many people acted in quiet echo")
    assert result.get("value") == len(cast) and items == cast, text
    assert text.startswith(f"{'Two' if len(cast) == 2 else len(cast)} persons ({len(cast)}) acted in Quiet Echo"), text
    items, text, _ = ask(people, "which people directed movies released in 2012")
    assert items == sorted(p for p, f in DIRECTED if YEAR[f] == 2012), text
    items, text, _ = ask(people, "who acted in movies released in 1994")  # "who": the people, the hubs
    assert items == sorted(p for p, f in ACTED if YEAR[f] == 1994), text


def test_when_was_a_film_released_where_its_date_is_called_year(people):
    _, text, _ = ask(people, "when was river lantern released")
    assert str(YEAR["River Lantern"]) in text, text
