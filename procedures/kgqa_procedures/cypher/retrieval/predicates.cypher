// Distinct predicate labels of the graph (the vocabulary that splits "attribute value" components).
// returns: predicate
MATCH ()-[t:Triple]->()
RETURN DISTINCT t.predicate;
