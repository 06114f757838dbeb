-- Every fact of the hubs of one type, one and two hops out (through a non-hub entity): the catalog
-- exact answers read (as procedures/.../answering/hub_facts.cypher on the graph in Kùzu).
-- params: hub_type text, lim int
-- returns: hub id, hub label, via predicate, middle id, middle label, predicate, value id, value label, value is literal
SELECT * FROM (
 SELECT p.id, p.label, '', '', '', t.predicate, v.id, v.label, v.is_literal
 FROM kgqa.entities p JOIN kgqa.triples t ON t.subject = p.id JOIN kgqa.entities v ON v.id = t.object
 WHERE %(hub_type)s::text = ANY(p.types)
 UNION ALL
 SELECT p.id, p.label, t1.predicate, m.id, m.label, t2.predicate, v.id, v.label, v.is_literal
 FROM kgqa.entities p JOIN kgqa.triples t1 ON t1.subject = p.id JOIN kgqa.entities m ON m.id = t1.object
 JOIN kgqa.triples t2 ON t2.subject = m.id JOIN kgqa.entities v ON v.id = t2.object
 WHERE %(hub_type)s::text = ANY(p.types) AND NOT m.is_literal AND NOT %(hub_type)s::text = ANY(m.types)
   AND v.id <> p.id
) AS facts
LIMIT %(lim)s::int;
