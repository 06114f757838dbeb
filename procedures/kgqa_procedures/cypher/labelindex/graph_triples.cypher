// Every triple of the graph with its entities' labels (the texts DiFaR embeds).
// returns: s.id, s.label, predicate, o.id, o.label
MATCH (s:Entity)-[t:Triple]->(o:Entity)
RETURN s.id, s.label, t.predicate, o.id, o.label;
