// The most frequent predicates.
// params: $limit INT64   returns: predicate, n
MATCH ()-[t:Triple]->() RETURN t.predicate AS predicate, count(*) AS n ORDER BY n DESC, predicate LIMIT $limit;
