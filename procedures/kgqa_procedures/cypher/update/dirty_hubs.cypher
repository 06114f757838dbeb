// The hubs marked dirty, oldest mark first.
// returns: id
MATCH (d:kgqa_DirtyHub) RETURN d.id ORDER BY d.marked_at, d.id;
