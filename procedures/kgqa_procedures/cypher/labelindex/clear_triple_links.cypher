// Remove every TripleTextOf edge (they are rewritten when the graph's triples changed).
MATCH (:TripleText)-[r:TripleTextOf]->(:Entity) DELETE r;
