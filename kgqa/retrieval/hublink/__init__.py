"""HubLink (thesis §4.6–4.8): the retriever over the hub index, with its hit tables, coverage scoring
and hub ranking."""
