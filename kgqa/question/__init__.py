"""Question analysis shared by retrieval, answering, indexing and the LLM roles: the components of a
question (anchors and attributes) and the word lists that read them."""
