// Resources without a type, and the number of distinct types (the schema view's footnote).
// returns: untyped resources, distinct types
MATCH (e:Entity) WHERE NOT e.is_literal AND size(e.types) = 0 WITH count(*) AS untyped
OPTIONAL MATCH (x:Entity) UNWIND x.types AS ty
RETURN untyped, count(DISTINCT ty);
