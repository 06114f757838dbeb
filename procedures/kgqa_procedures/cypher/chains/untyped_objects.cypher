// The schema's rows of untyped, non-literal objects, split by whether the object is itself the subject
// of some triple (a thing) or not (a value: a person, a tag, a year of a graph that types nothing).
// returns: predicate, subject types, object is a subject, triples
MATCH (s:Entity)-[t:Triple]->(o:Entity)
WHERE size(o.types) = 0 AND NOT o.is_literal
RETURN t.predicate, s.types, EXISTS { MATCH (o)-[:Triple]->(:Entity) }, count(*);
