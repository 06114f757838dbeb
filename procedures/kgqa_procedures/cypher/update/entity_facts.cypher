// What decides whether an entity is a hub root and how its paths read: label, types, literal flag
// and out-degree (entities not in the graph give no row).
// params: $ids STRING[]   returns: id, label, types, is_literal, out_degree
UNWIND $ids AS eid
MATCH (e:Entity {id: eid})
OPTIONAL MATCH (e)-[t:Triple]->(:Entity)
RETURN e.id, e.label, e.types, e.is_literal, count(t);
