// How many hubs are marked dirty.
// returns: n
MATCH (d:kgqa_DirtyHub) RETURN count(d);
