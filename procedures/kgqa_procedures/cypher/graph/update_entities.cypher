// Merge records into stored entities (Arrow table kgqa_rows: eid, label, name, types, is_literal). A
// label only overwrites when the record states one (label not null); a stored entity without a label
// gets the name its id gives; types accumulate; an entity once stated to be a literal stays one.
LOAD FROM kgqa_rows
MATCH (e:Entity {id: eid})
SET e.label = CASE WHEN label IS NOT NULL THEN label WHEN e.label = '' THEN coalesce(name, '') ELSE e.label END,
    e.types = list_distinct(list_concat(e.types, types)),
    e.is_literal = e.is_literal OR is_literal;
