// Ids of all indexed hubs (the hub roots the traversal strategy can reach).
// returns: id
MATCH (h:Hub) RETURN h.id;
