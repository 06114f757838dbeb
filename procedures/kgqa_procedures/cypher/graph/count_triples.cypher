// Number of triples and of distinct predicates.
// returns: triples, predicates
MATCH ()-[t:Triple]->() RETURN count(*), count(DISTINCT t.predicate);
