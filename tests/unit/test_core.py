"""Pure functions: canonical strings, path hashes, verbalisation, components, ranking."""

from __future__ import annotations

import math

from kgqa.indexing.paths import signature, vector_texts
from kgqa.indexing.verbalise import verbalise
from kgqa.question.components import extract_components
from kgqa.retrieval.hublink.ranking import best_per_path, diversity_rank, hub_score, prune_hubs
from kgqa.types import Entity, Hub, HubPath, Triple, VectorLevel, path_hash, synthetic_literal_id
from kgqa.vectorstores.base import decode_triples, encode_triples

P = Entity("R1", "A Paper", ("Paper",))
V = Entity("R2", "ICSA")
Y = Entity("L9", "2019", (), True)


def test_canonical_triple_string_forms():
    assert Triple(P, "venue", V).canonical == "(R1:A Paper, venue, R2:ICSA)"
    assert Triple(P, "year", Entity("L9", "")).canonical == "(R1:A Paper, year, L9)"
    assert Triple(P, "year", Entity("L9", "L9")).canonical == "(R1:A Paper, year, L9)"
    lit = Entity(synthetic_literal_id("2019"), "2019", (), True)
    assert Triple(P, "year", lit).canonical == "(R1:A Paper, year, 2019)"


def test_path_hash_is_stable_and_order_sensitive():
    a, b = Triple(P, "venue", V), Triple(P, "year", Y)
    assert path_hash([a, b]) == path_hash([a, b])
    assert path_hash([a, b]) != path_hash([b, a])
    assert signature(["x", "y"]) == signature(["y", "x", "x"])


def test_verbalise_and_vector_texts():
    text = verbalise(["A Paper", "Contribution 1", "Case study"], ["contribution", "evaluation method"])
    assert text == "'A Paper' has contribution 'Contribution 1', which has evaluation method 'Case study'."
    levels = vector_texts(text, [Triple(P, "venue", V)])
    assert (VectorLevel.PATH, text) in levels
    assert (VectorLevel.TRIPLE, "(A Paper, venue, ICSA)") in levels
    assert (VectorLevel.ENTITY, "ICSA") in levels and (VectorLevel.PREDICATE, "venue") in levels
    assert len(levels) == len(set(levels))


def test_components_rules():
    assert extract_components("Which papers were published at ICSA in 2019?")[:3] == ["2019", "ICSA", "papers"]
    comps = extract_components("Who are the authors of the paper 'A Taxonomy of Blockchain Systems'?")
    assert comps[0] == "A Taxonomy of Blockchain Systems" and "authors" in comps
    assert "Johannes Grohmann" in extract_components("How many papers has the author Johannes Grohmann?")
    assert extract_components("") == []


def _path(h: str, score: float, level=VectorLevel.PATH, subject=P, text=""):
    t = Triple(subject, "p", V)
    return HubPath("R1", h, (t,), "", text or t.text, level, score)


def test_best_per_path_keeps_highest_level():
    out = best_per_path([_path("a", 0.5), _path("a", 0.9, VectorLevel.ENTITY), _path("b", 0.7)])
    assert [(p.hash, p.score) for p in out] == [("a", 0.9), ("b", 0.7)]


def test_diversity_penalty_applies_to_repeated_triple_subjects():
    ranked = diversity_rank(
        [
            _path("a", 0.80, VectorLevel.TRIPLE),
            _path("b", 0.79, VectorLevel.TRIPLE),
            _path("c", 0.77, VectorLevel.TRIPLE, subject=V),
        ],
        0.05,
    )
    assert [p.hash for p in ranked] == ["a", "c", "b"]
    assert math.isclose(ranked[2].score, 0.74)


def test_hub_score_weights_high_scores():
    assert math.isclose(hub_score([0.5], 5), 0.5)
    s = hub_score([0.9, 0.1], 5)
    assert 0.5 < s < 0.9 and math.isclose(
        s, (0.9 * math.exp(4.5) + 0.1 * math.exp(0.5)) / (math.exp(4.5) + math.exp(0.5))
    )
    hubs = [Hub(Entity("A"), [_path("x", 0.2)]), Hub(Entity("B"), [_path("y", 0.8)])]
    assert [h.root.id for h in prune_hubs(hubs, 1, 5)] == ["B"]


def test_an_edges_own_properties_in_its_string_path_text_and_storage():
    """A rel table's properties ride on the triple (not part of its identity), are said after the edge
    in the path text and survive the stored JSON of a path's triples (older rows, without them, too)."""
    acted = Triple(P, "cites", V, (("role", "Neo"), ("billing", "1")))
    assert acted == Triple(P, "cites", V) and acted.canonical == "(R1:A Paper, cites, R2:ICSA)"
    assert acted.stated == "(R1:A Paper, cites, R2:ICSA) {role: Neo, billing: 1}"
    text = verbalise(["The Matrix", "Keanu Reeves"], ["actor"], [(("role", "Neo"),)])
    assert text == "'The Matrix' has actor 'Keanu Reeves' (role 'Neo')."
    stored = decode_triples(encode_triples((acted, Triple(P, "venue", V))))
    assert [t.qualifiers for t in stored] == [(("role", "Neo"), ("billing", "1")), ()]
    assert decode_triples('[["R1","A Paper","venue","R2","ICSA"]]')[0].canonical == "(R1:A Paper, venue, R2:ICSA)"
