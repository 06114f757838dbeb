// The graph's schema in one aggregate: which predicate connects which subject and object types.
// returns: predicate, subject types, object types, object is literal, triples
MATCH (s:Entity)-[t:Triple]->(o:Entity)
RETURN t.predicate, s.types, o.types, o.is_literal, count(*) AS n;
