// Every entity with its label (the node texts of SimGRAG and Chain of Explorations).
// returns: id, label
MATCH (e:Entity) RETURN e.id, e.label;
