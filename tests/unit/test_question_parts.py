"""Questions that ask two things, read as their parts (kgqa/question/parts.py), and one answer joined from
the parts' answers (kgqa/answering/joined.py)."""

from __future__ import annotations

import pytest

from kgqa.answering.joined import join_answers
from kgqa.question.parts import QuestionParts, parts_for_each, question_parts
from kgqa.types import Answer, RankedHub, Source


@pytest.mark.parametrize(
    ("question", "first", "second"),
    [
        ("Who wrote Northern Parade and who directed it?", "Who wrote Northern Parade?", "Who directed it?"),
        (
            "when was northern parade released and what genre is it",
            "When was northern parade released?",
            "What genre is it?",
        ),
        (
            "In which year was X released, and in what language is it?",
            "In which year was X released?",
            "In what language is it?",
        ),
        (
            "Who directed Crime and Punishment and when was it released?",
            "Who directed Crime and Punishment?",
            "When was it released?",
        ),
        ("Who wrote and directed Northern Parade?", "Who wrote Northern Parade?", "Who directed Northern Parade?"),
        ("who directed and starred in X", "Who directed X?", "Who starred in X?"),
        (
            "what are the genre and release year of northern parade",
            "What are the genre of northern parade?",
            "What are the release year of northern parade?",
        ),
        ("what genre and language is X", "What genre is X?", "What language is X?"),
    ],
)
def test_a_question_that_asks_two_things_is_read_as_its_two_parts(question, first, second):
    assert question_parts(question) == QuestionParts(first, second)


@pytest.mark.parametrize(
    "question",
    [
        "Who directed X and Y?",  # two named things: the graph decides (parts_for_each)
        "When was Pride and Prejudice released?",
        "Which films did X write and direct?",  # one set of films meeting both roles
        "Who directed 'War and Who Knows'?",  # the "and" of a quoted title
        "Which papers share an author and a venue with X?",
    ],
)
def test_a_question_that_asks_one_thing_has_no_parts(question):
    assert question_parts(question) is None


def test_pronouns_name_the_first_parts_topic_or_its_one_answer():
    parts = question_parts("Who directed Northern Parade and what else did she direct?")
    assert parts is not None and parts.asks_for_others()
    assert parts.second_for("Northern Parade", ["Ada Whitcombe"]) == "What else did 'Ada Whitcombe' direct?"
    # several directors: "she" names none of them (the question is answered whole)
    assert parts.second_for("Northern Parade", ["A", "B"]) is None
    born = question_parts("When was Ada Whitcombe born and where did she study?")
    assert born is not None and born.second_for("Ada Whitcombe", ["1950"]) == "Where did 'Ada Whitcombe' study?"
    it = question_parts("Who directed X and when was it released?")
    assert it is not None and not it.asks_for_others()
    assert it.second_for("Northern Parade", ["Ada"]) == "When was 'Northern Parade' released?"
    assert it.second_for(None, ["Ada"]) is None  # no topic to put in its place: answered whole
    its = question_parts("What genre is X and what is its language?")
    assert its is not None and its.second_for("X", []) == "What is 'X's language?"
    her = question_parts("Who is the director of X and what is her nationality?")
    assert her is not None and her.second_for("X", ["Ada"]) == "What is 'Ada's nationality?"
    them = question_parts("Who wrote X and what are their other films?")
    assert them is not None and them.second_for("X", ["A", "B"]) is None


def _named_at(labels: list[str]):
    """A stand-in for the graph's linker: the longest of `labels` the text names."""

    def at(text: str) -> tuple[int, int] | None:
        hits = [(text.lower().find(label.lower()), label) for label in labels]
        found = [(i, i + len(label)) for i, label in hits if i >= 0]
        return max(found, key=lambda s: s[1] - s[0]) if found else None

    return at


def test_a_question_about_two_named_things_is_asked_of_each():
    at = _named_at(["Northern Parade", "Lonely Letters", "Pride and Prejudice", "Pride"])
    parts = parts_for_each("Who directed Northern Parade and Lonely Letters?", at)
    assert parts == QuestionParts("Who directed Northern Parade?", "Who directed Lonely Letters?")
    parts = parts_for_each("when were 'Northern Parade' and 'Lonely Letters' released", at)
    assert parts == QuestionParts("When were 'Northern Parade' released?", "When were 'Lonely Letters' released?")
    assert parts_for_each("When was Pride and Prejudice released?", at) is None  # one label
    # "which films did A and B ...": the films of each; with "both" or "together", those of both at once
    parts = parts_for_each("Which films did Northern Parade and Lonely Letters win?", at)
    assert parts == QuestionParts("Which films did Northern Parade win?", "Which films did Lonely Letters win?")
    assert parts_for_each("Which films did Northern Parade and Lonely Letters both win?", at) is None
    assert parts_for_each("which films did Northern Parade and Lonely Letters make together", at) is None
    assert parts_for_each("Who directed Northern Parade and why?", at) is None  # no second named thing


def _answer(question: str, text: str, sources: list[tuple[int, str]], triples: list[str], items: list[str]) -> Answer:
    return Answer(
        question=question,
        answer=text,
        sources=[Source(n, hub, hub.upper()) for n, hub in sources],
        triples=triples,
        hubs=[RankedHub(hub, hub.upper(), 1.0, True, 1) for _, hub in sources],
        strategy="chain",
        topic_entity=sources[0][1],
        timings={"retrieve": 0.25},
        result={"operation": "list", "value": None, "items": items, "groups": {}},
    )


def test_joined_answers_number_their_citations_over_one_sources_list():
    a = _answer("Who wrote X?", "A [1] and B [2] wrote X.", [(1, "x"), (2, "y")], ["t1", "t2"], ["A", "B"])
    b = _answer("Who directed X?", "C [1] directed X; see also [2].", [(1, "z"), (2, "x")], ["t2", "t3"], ["C"])
    joined = join_answers("Who wrote X and who directed it?", [a, b])
    assert joined.answer == "A [1] and B [2] wrote X. C [3] directed X; see also [1]."
    assert [(s.n, s.hub_id) for s in joined.sources] == [(1, "x"), (2, "y"), (3, "z")]
    assert joined.triples == ["t1", "t2", "t3"]
    assert [h.hub_id for h in joined.hubs] == ["x", "y", "z"]
    assert joined.result is not None and joined.result["operation"] == "parts"
    assert [p["question"] for p in joined.result["parts"]] == ["Who wrote X?", "Who directed X?"]
    assert joined.result["items"] == ["A", "B", "C"]
    assert joined.timings["retrieve"] == 0.5 and joined.strategy == "chain"
    assert joined.question == "Who wrote X and who directed it?" and "2 parts" in joined.notes[0]
