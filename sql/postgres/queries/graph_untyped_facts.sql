-- Every fact of the subjects without a type, one and two hops out (through an entity that is not a
-- literal): the catalog of an index built without hub types (as procedures/.../answering/untyped_facts.cypher
-- on the graph in Kùzu).
-- params: lim int
-- returns: hub id, hub label, via predicate, middle id, middle label, predicate, value id, value label, value is literal
SELECT * FROM (
 SELECT p.id, p.label, '', '', '', t.predicate, v.id, v.label, v.is_literal
 FROM kgqa.entities p JOIN kgqa.triples t ON t.subject = p.id JOIN kgqa.entities v ON v.id = t.object
 WHERE coalesce(cardinality(p.types), 0) = 0
 UNION ALL
 SELECT p.id, p.label, t1.predicate, m.id, m.label, t2.predicate, v.id, v.label, v.is_literal
 FROM kgqa.entities p JOIN kgqa.triples t1 ON t1.subject = p.id JOIN kgqa.entities m ON m.id = t1.object
 JOIN kgqa.triples t2 ON t2.subject = m.id JOIN kgqa.entities v ON v.id = t2.object
 WHERE coalesce(cardinality(p.types), 0) = 0 AND NOT m.is_literal AND v.id <> p.id
) AS facts
LIMIT %(lim)s::int;
