// How many one-hop facts the hubs of one type have: counted before the catalog is read
// (answering/hub_facts), so a graph past the catalog's ceiling is known without reading its rows
// (60 ms at 10^6 triples, where reading them took 5-7 s).
// params: $hub_type STRING   returns: n
MATCH (p:Entity)-[t:Triple]->(v:Entity)
WHERE list_contains(p.types, $hub_type)
RETURN count(*);
