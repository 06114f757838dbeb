"""The knowledge graph on embedded Kùzu: the connection owner, loaders and graph queries."""
