// One entity by id: a primary-key lookup (graph/entities_by_ids reads a list, planned as a scan).
// params: $id STRING   returns: id, label, types, is_literal
MATCH (e:Entity {id: $id}) RETURN e.id, e.label, e.types, e.is_literal;
