// Entities by id.
// params: $ids STRING[]   returns: id, label, types, is_literal
UNWIND $ids AS id MATCH (e:Entity {id: id}) RETURN e.id, e.label, e.types, e.is_literal;
