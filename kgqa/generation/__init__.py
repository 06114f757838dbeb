"""Answer generation: partial answers per hub, final answer with citations, supporting triples."""
