"""Football results as a newcomer would load them (typed CSV, the matches as hubs): three relations to
teams (home team, away team, winner) that a question tells apart by its verb ("which team *won* the most
matches": winner, whose stem "win" is too short to share with "won"), dates as the graph writes them,
and numbers each match states ("the most home goals", "the average number of home goals"). Expected
answers are computed from the rows here. Real Kùzu, real MiniLM, offline mode, direct strategy."""

from __future__ import annotations

from collections import Counter
from statistics import fmean

import pytest
from test_course_catalog import answer, indexed

TEAMS = {"Arsenal": "London", "Chelsea": "London", "Everton": "Liverpool", "Leeds United": "Leeds"}
#: home team, away team, date, home goals, away goals
MATCHES = [
    ("Arsenal", "Chelsea", "2022-08-13", 2, 1),
    ("Chelsea", "Everton", "2022-09-03", 0, 0),
    ("Everton", "Arsenal", "2022-10-22", 3, 1),
    ("Leeds United", "Everton", "2023-01-14", 1, 2),
    ("Arsenal", "Leeds United", "2023-02-25", 4, 0),
    ("Chelsea", "Leeds United", "2023-04-08", 1, 3),
    ("Everton", "Chelsea", "2023-05-20", 2, 2),
    ("Leeds United", "Arsenal", "2023-09-16", 0, 1),
    ("Arsenal", "Everton", "2023-11-04", 3, 2),
]


def winner(m: tuple) -> str | None:
    return m[0] if m[3] > m[4] else m[1] if m[4] > m[3] else None


@pytest.fixture(scope="module")
def matches(tmp_path_factory, embedder):
    rows: list[tuple] = []
    for team, city in TEAMS.items():
        rows.append((team, "based in", city, team, "Team", "false"))
    for i, m in enumerate(MATCHES):
        label = f"{m[0]} v {m[1]} {m[2][:4]}"
        rows += [
            (f"m{i}", "home team", m[0], label, "Match", "false"),
            (f"m{i}", "away team", m[1], label, "Match", "false"),
            (f"m{i}", "date", m[2], label, "Match", "true"),
            (f"m{i}", "home goals", m[3], label, "Match", "true"),
            (f"m{i}", "away goals", m[4], label, "Match", "true"),
        ]
        if winner(m):
            rows.append((f"m{i}", "winner", winner(m), label, "Match", "false"))
    ws = indexed(tmp_path_factory.mktemp("matches"), "matches", rows, "Match", embedder)
    yield ws
    ws.close()


def label(m: tuple) -> str:
    return f"{m[0]} v {m[1]} {m[2][:4]}"


def test_the_verb_names_which_relation_to_a_team(matches):
    wins = Counter(w for m in MATCHES if (w := winner(m)))
    items, text, _ = answer(matches, "which team won the most matches")
    assert items == [wins.most_common(1)[0][0]], text
    _, text, result = answer(matches, "how many matches did everton win")
    assert result.get("value") == wins["Everton"], text
    items, text, _ = answer(matches, "which matches did arsenal win in 2023")
    assert items == sorted(label(m) for m in MATCHES if winner(m) == "Arsenal" and m[2].startswith("2023")), text


def test_a_number_each_match_states(matches):
    most = max(m[3] for m in MATCHES)
    items, text, _ = answer(matches, "which match had the most home goals")
    assert items == sorted(label(m) for m in MATCHES if m[3] == most), text
    _, text, result = answer(matches, "what is the average number of home goals")
    assert result.get("value") == round(fmean(m[3] for m in MATCHES), 4), text
    _, text, result = answer(matches, "how many matches were played in 2023")
    assert result.get("value") == sum(m[2].startswith("2023") for m in MATCHES), text


def test_what_the_latest_match_states(matches):
    """ "who won the latest match": the match first by its date over the whole graph, then its winner."""
    latest = max(MATCHES, key=lambda m: m[2])
    _, text, result = answer(matches, "who won the latest match")
    assert result.get("items") == [winner(latest)] and label(latest) in text, text
