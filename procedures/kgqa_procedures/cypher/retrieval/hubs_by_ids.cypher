// Indexed hubs by id.
// params: $ids STRING[]   returns: id, label, depth, path_count
UNWIND $ids AS hid MATCH (h:kgqa_Hub {id: hid}) RETURN h.id, h.label, h.depth, h.path_count;
