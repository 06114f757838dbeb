// How many one-hop facts the subjects without a type have: counted before answering/untyped_facts is
// read, so a graph past the catalog's ceiling is known without reading its rows.
// params: none   returns: n
MATCH (p:Entity)-[t:Triple]->(v:Entity)
WHERE size(p.types) = 0
RETURN count(*);
