// Triple hypernodes (qualified facts) with their edges: the fact's subject and object and its qualifiers.
// returns: h.id, h.label, predicate, o.id, o.label
MATCH (h:Entity)-[t:Triple]->(o:Entity)
WHERE list_contains(h.types, 'TripleHypernode')
RETURN h.id, h.label, t.predicate, o.id, o.label
ORDER BY h.id, t.predicate, o.id;
