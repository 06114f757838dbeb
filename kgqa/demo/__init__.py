"""The packaged demo knowledge graph (a fictional scholarly graph) and its questions."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DEMO_QUESTIONS = (
    ("Which papers were published at ICSA in 2019?", "F01"),
    ("Who are the authors of the paper 'Recovering Microservice Boundaries from Monolith Call Graphs'?", "F01"),
    ("Which papers use a controlled experiment as evaluation method?", "F00"),
)


def demo_graph_path() -> Path:
    """Path of the demo graph CSV shipped with the package."""
    return Path(str(resources.files("kgqa.demo").joinpath("scholarly_demo.csv")))


def demo_questions_path() -> Path:
    """Path of the demo questions CSV (with golden triples)."""
    return Path(str(resources.files("kgqa.demo").joinpath("demo_questions.csv")))
