// Insert or merge entities. A label only overwrites when the record states one (label not null);
// types accumulate; an entity once stated to be a literal stays one.
// params: $rows LIST<STRUCT(id STRING, label STRING or null, types STRING[], is_literal BOOLEAN)>
UNWIND $rows AS row
MERGE (e:Entity {id: row.id})
ON CREATE SET e.label = coalesce(row.label, ''), e.types = row.types, e.is_literal = row.is_literal
ON MATCH SET e.label = coalesce(row.label, e.label),
             e.types = list_distinct(list_concat(e.types, row.types)),
             e.is_literal = e.is_literal OR row.is_literal;
