// Remove every LabelOf edge (they are rewritten when the graph's entities changed).
MATCH (:LabelText)-[r:LabelOf]->(:Entity) DELETE r;
