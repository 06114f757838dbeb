"""The packaged demo knowledge graph and its questions."""
