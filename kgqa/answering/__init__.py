"""Answering: the operation a question asks for (value, list, count, rank, max/min, compare, group,
negation), performed over the facts the partial answers selected, rendered as cited sentences with a
structured result beside them (docs/answers.md)."""
