// The distinct entity types of the graph (typed unknown nodes of SimGRAG patterns).
// returns: type
MATCH (e:Entity) UNWIND e.types AS ty RETURN DISTINCT ty;
