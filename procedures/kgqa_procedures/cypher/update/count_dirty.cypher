// How many hubs are marked dirty.
// returns: n
MATCH (d:DirtyHub) RETURN count(d);
