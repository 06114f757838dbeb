// Remove every LabelOf edge (they are rewritten when the graph's entities changed).
MATCH (:kgqa_LabelText)-[r:kgqa_LabelOf]->(:Entity) DELETE r;
