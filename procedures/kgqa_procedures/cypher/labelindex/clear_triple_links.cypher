// Remove every TripleTextOf edge (they are rewritten when the graph's triples changed).
MATCH (:kgqa_TripleText)-[r:kgqa_TripleTextOf]->(:Entity) DELETE r;
