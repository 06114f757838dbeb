"""Component analysis (anchors, attributes, qualifiers, negation) and coverage selection on hand-made
hubs with hand-set similarities: which hubs pass, which triples a hub states."""

from __future__ import annotations

import numpy as np
import pytest

from kgqa.answering.words import is_negative_value
from kgqa.question.components import NamedLabel, analyse_components, extract_components
from kgqa.retrieval.hublink.coverage import QueryShape, anchor_groups, anchor_kind, read_shape, serving_triples
from kgqa.retrieval.hublink.hits import HitTable
from kgqa.types import Entity, Triple
from kgqa.vectorstores.base import ScoredVectors, VectorHit


# -- extraction ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "question, expected",
    [
        (
            "Which papers apply the evaluation method Field Experiment?",
            ["Field Experiment", "papers", "evaluation method"],
        ),
        (
            "How many evaluation methods evaluate the property Freedom from Risk?",
            ["Freedom from Risk", "evaluation methods", "property"],
        ),
        ("How many threats to validity does the paper 'X Y' discuss?", ["X Y", "threats to validity", "paper"]),
        ("Among papers that investigate Blockchain, which are used frequently?", ["Blockchain", "papers"]),
    ],
)
def test_extraction_drops_verbs_adverbs_and_operators(question, expected):
    assert extract_components(question) == expected


def test_temporal_comparison_asks_for_a_year():
    assert "year" in extract_components("Was 'A' published earlier than 'B'?")
    assert extract_components("Which papers appeared in 2019?").count("year") == 0


def test_year_ranges_are_expanded():
    comps = extract_components("How many papers per year were published from 2016 to 2019?")
    assert {"2016", "2017", "2018", "2019"} <= set(comps)
    assert "2017" in extract_components("Papers published between 2016 and 2018")


# -- analysis --------------------------------------------------------------------------------------
def _analyse(question: str, vocabulary=(), ignore=("paper",)):
    return analyse_components(question, extract_components(question), vocabulary, ignore)


def test_anchor_takes_the_attribute_before_it_as_qualifier():
    comps = _analyse("Which papers evaluate the property Reliability in the publication year 2020?")
    by_text = {c.text: c for c in comps}
    assert by_text["Reliability"].anchor and by_text["Reliability"].qualifier == "property"
    assert by_text["2020"].anchor and by_text["2020"].qualifier == "publication year"
    assert "property" not in by_text and "publication year" not in by_text and "papers" not in by_text


def test_attribute_value_phrase_is_split_on_the_graph_vocabulary():
    comps = _analyse(
        "What are the research objects of papers of the paper class philosophical paper?",
        vocabulary=["paper class", "research object"],
    )
    by_text = {c.text: c for c in comps}
    assert by_text["philosophical paper"].anchor and by_text["philosophical paper"].qualifier == "paper class"
    assert not by_text["research objects"].anchor


def test_negation_marks_the_attribute_unless_contrasted():
    neg = {c.text: c.negated for c in _analyse("Which papers on Blockchain indicate that no input data was used?")}
    assert neg["input data"] is True and neg["Blockchain"] is False
    contrast = {
        c.text: c.negated
        for c in _analyse("How many papers have not used input data compared to those that made input data available?")
    }
    assert contrast["input data"] is False


def test_analysis_never_returns_nothing_for_a_non_empty_list():
    assert [c.text for c in analyse_components("papers?", ["papers"], (), ("paper",))] == ["papers"]


def _named(question: str, label: str) -> NamedLabel:
    start = question.lower().index(label.lower())
    return NamedLabel(label, start, start + len(label))


@pytest.mark.parametrize(
    "question, label, expected",
    [
        (  # a title typed in lower case: one anchor, not three noun phrases of it
            "which evaluation method is used in data-driven refactoring for sensor networks in production",
            "Data-Driven Refactoring for Sensor Networks in Production",
            [("evaluation method", False), ("Data-Driven Refactoring for Sensor Networks in Production", True)],
        ),
        (  # a name in lower case, the graph's spelling kept
            "how many papers did lucia silva publish per publication year",
            "Lucia Silva",
            [("Lucia Silva", True), ("publication year", False)],
        ),
        (  # already a component as written: unchanged
            "Who directed 'Cold Orchard'?",
            "Cold Orchard",
            [("Cold Orchard", True), ("directed", False)],
        ),
        # one word is as often an ordinary word of the question, and a predicate of the graph names
        # an attribute: both are left as the components have them
        ("which papers use simulation as their method", "Simulation", None),
        ("what is the publication year of those papers", "publication year", None),
    ],
)
def test_a_label_the_question_writes_is_one_anchor(question, label, expected):
    vocabulary, ignored = ["publication year", "author"], ("paper",)
    comps = analyse_components(question, extract_components(question), vocabulary, ignored, _named(question, label))
    if expected is None:
        expected = [
            (c.text, c.anchor) for c in analyse_components(question, extract_components(question), vocabulary, ignored)
        ]
        assert (label, True) not in [(c.text, c.anchor) for c in comps]
    assert [(c.text, c.anchor) for c in comps] == expected


# -- selection -------------------------------------------------------------------------------------
ROOT = Entity("P1", "A Study of Things")
C1 = Entity("C1", "Contribution 1")
AUTH = Entity("A1", "authors list")
RO = Triple(C1, "Research Object", Entity("L1", "Technical Debt"))
EM1 = Triple(C1, "Evaluation method", Entity("L2", "Case Study"))
EM2 = Triple(C1, "Evaluation method", Entity("L3", "Survey"))
YEAR = Triple(ROOT, "publication year", Entity("L4", "2017"))
DATA = Triple(C1, "Uses Input Data", Entity("L5", "No input data used"))
HAS_AUTH = Triple(ROOT, "authors", AUTH)
NAME = Triple(AUTH, "has list element", Entity("L6", "Ann Author"))
NAME2 = Triple(AUTH, "has list element", Entity("L7", "Bob Author"))
TO_C1 = Triple(ROOT, "contribution", C1)
PATHS = [(TO_C1, RO), (TO_C1, EM1), (TO_C1, EM2), (YEAR,), (TO_C1, DATA), (HAS_AUTH, NAME), (HAS_AUTH, NAME2)]


def _sims(pairs: dict[str, dict[int, float]], n: int = 4) -> dict[str, tuple[float, ...]]:
    """Texts with the given similarity per query index; every other text at 0.1."""
    texts = {ROOT.text} | {t.object.text for p in PATHS for t in p} | {t.predicate for p in PATHS for t in p}
    return {x: tuple(pairs.get(x, {}).get(q, 0.1) for q in range(n)) for x in texts}


def test_anchor_and_attribute_select_their_triples():
    sims = _sims({"Technical Debt": {1: 1.0}, "Evaluation method": {2: 0.92}, "Case Study": {2: 0.4}})
    shape = QueryShape(((1,),), (2,))
    out = serving_triples(sims, ROOT, PATHS, shape, margin=0.05)
    assert out.triples == [RO, EM1, EM2] and out.satisfies_negations


def test_attribute_matched_by_the_root_or_an_anchor_triple_adds_nothing():
    sims = _sims({"A Study of Things": {1: 1.0}, "publication year": {2: 0.95}})
    out = serving_triples(sims, ROOT, PATHS, QueryShape(((1,),), (2,)), margin=0.05)
    assert out.triples == [YEAR]  # the title is the root itself: no triple for it


def test_attribute_on_a_container_node_is_stated_by_the_leaves_below():
    sims = _sims({"A Study of Things": {1: 1.0}, "authors": {2: 1.0}, "authors list": {2: 0.76}})
    out = serving_triples(sims, ROOT, PATHS, QueryShape(((1,),), (2,)), margin=0.05)
    assert out.triples == [NAME, NAME2]
    sims = _sims({"A Study of Things": {1: 1.0}, "authors": {2: 1.0}})  # a named node is the answer itself
    assert serving_triples(sims, ROOT, PATHS, QueryShape(((1,),), (2,)), margin=0.05).triples == [HAS_AUTH]


def test_attribute_below_an_anchor_comes_with_the_linking_triples():
    org = Entity("O1", "University of X")
    affiliation, located = (
        Triple(Entity("L6", "Ann Author"), "affiliation", org),
        Triple(org, "located in", Entity("L9", "Italy")),
    )
    other = Triple(Entity("O2", "Other Org"), "located in", Entity("L10", "Spain"))
    paths = PATHS + [
        (HAS_AUTH, NAME, affiliation, located),
        (HAS_AUTH, NAME2, Triple(NAME2.object, "affiliation", other.subject), other),
    ]
    sims = _sims({"Ann Author": {1: 1.0}})
    sims |= {x: (0.1,) * 4 for x in ("University of X", "Italy", "Other Org", "Spain", "affiliation")}
    sims["located in"] = (0.1, 0.1, 0.7, 0.1)
    out = serving_triples(sims, ROOT, paths, QueryShape(((1,),), (2,)), margin=0.05)
    assert out.triples == [NAME, affiliation, located]


def test_attribute_naming_the_kind_of_an_anchor_is_absorbed():
    sims = _sims({"Ann Author": {1: 1.0}, "authors": {2: 0.9}})
    out = serving_triples(sims, ROOT, PATHS, QueryShape(((1,),), (2,)), margin=0.05)
    assert out.triples == [NAME]


def test_negated_attribute_needs_a_negative_value():
    sims = _sims({"Uses Input Data": {1: 0.9}})
    assert serving_triples(sims, ROOT, PATHS, QueryShape((), (1,), (1,)), 0.05).triples == [DATA]
    positive = [
        p if p[-1] is not DATA else (TO_C1, Triple(C1, "Uses Input Data", Entity("L8", "Available"))) for p in PATHS
    ]
    sims = {**sims, "Available": (0.1,) * 4}
    out = serving_triples(sims, ROOT, positive, QueryShape((), (1,), (1,)), 0.05)
    assert not out.satisfies_negations and out.triples == []
    assert is_negative_value("False") and is_negative_value("No input data used")
    assert not is_negative_value("Input data was used but is not available")


def test_anchor_kind_and_groups():
    sims = _sims({"2017": {1: 1.0}, "Technical Debt": {2: 0.97}, "A Study of Things": {3: 0.99}})
    triples = [t for p in PATHS for t in p]
    assert anchor_kind(sims, ROOT, triples, 1) == "publication year"
    assert anchor_kind(sims, ROOT, triples, 3) == "<hub root>"
    assert anchor_groups({1: ["publication year"], 2: ["Research Object"], 3: ["publication year", "x"], 4: []}) == [
        [1, 3],
        [2],
        [4],
    ]


def test_read_shape_promotes_lower_case_values_and_excludes_linking_and_negated_hubs():
    other = Entity("P2", "Another Study")
    cites = Triple(other, "cites", ROOT)
    hubs = [
        (ROOT, [t for p in PATHS for t in p]),
        (other, [cites, Triple(other, "Evaluation method", Entity("L11", "Survey"))]),
    ]
    sims = _sims({"Case Study": {1: 1.0}, "Evaluation method": {1: 0.5}})
    shape = read_shape([False], [False], hubs, sims)  # "case study" written in lower case
    assert shape.groups == ((1,),) and shape.attributes == ()
    negated = read_shape([False], [True], hubs, sims)  # "not evaluated with a case study"
    assert negated.groups == () and negated.excluded == {"P1"}
    sims = _sims({"A Study of Things": {1: 1.0}})
    sims["Another Study"], sims["cites"], sims["Survey"] = (0.1,) * 4, (0.1,) * 4, (0.1,) * 4
    assert read_shape([True], [False], hubs, sims).excluded == {"P2"}  # "the paper 'A Study of Things'"
    sims["cites"] = (0.1, 0.1, 0.8, 0.1)  # "which papers cite 'A Study ...'"
    assert read_shape([True, False], [False, False], hubs, sims).excluded == frozenset()


def test_hubs_must_match_every_anchor_group_by_name():
    shape = QueryShape(((1, 2), (3,)), (4,))
    bests = {
        "a": {1: 1.0, 2: 0.8, 3: 0.99, 4: 0.5},
        "b": {1: 0.8, 2: 0.99, 3: 1.0, 4: 0.9},
        "c": {1: 1.0, 2: 0.7, 3: 0.8, 4: 0.9},
        "d": {1: 0.6, 2: 0.6, 3: 0.6, 4: 0.6},
    }
    assert shape.passing(bests) == {"a", "b"}  # c misses group (3,); d matches nothing by name
    assert shape.score(bests["b"]) == pytest.approx((0.99 + 1.0 + 0.9) / 3)
    assert QueryShape(((1,),), ()).passing({"x": {1: 0.5}, "y": {1: 0.4}}) == {"x", "y"}  # none by name


def test_hit_table_groups_by_path_and_hub():
    hits = [
        VectorHit("h1", "p1", "path", "t1", (0.2, 0.9)),
        VectorHit("h1", "p1", "entity", "t2", (0.8, 0.1)),
        VectorHit("h1", "p2", "triple", "t3", (0.5, 0.5)),
        VectorHit("h2", "p3", "entity", "t2", (0.8, 0.1)),
    ]
    table = HitTable.from_scored(ScoredVectors.from_hits(hits, 2))
    assert table.path_hashes == ["p1", "p2", "p3"] and table.path_hubs == ["h1", "h1", "h2"]
    assert [h.text for h in table.best_hit] == ["t1", "t3", "t2"]
    np.testing.assert_allclose(table.path_best[0], [0.8, 0.9])
    np.testing.assert_allclose(table.hub_best["h1"], [0.8, 0.9])
    assert table.sims["t2"] == pytest.approx((0.8, 0.1))
    assert HitTable.from_scored(ScoredVectors.empty(3)).path_best.shape == (0, 3)
