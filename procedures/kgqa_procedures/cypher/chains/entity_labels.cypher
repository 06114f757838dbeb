// Every entity with a label at least $min_len long (an in-memory label index for topic linking).
// params: $min_len INT64   returns: id, label, types, is_literal
MATCH (e:Entity)
WHERE size(e.label) >= $min_len
RETURN e.id, e.label, e.types, e.is_literal;
