"""DiFaR, Direct Fact Retrieval (thesis §7.4.2): the question's nearest triples by ANN over the label index."""
