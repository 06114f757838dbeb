// Create the entities in the Arrow table bound to kgqa_rows (columns eid, label (null: none), name (the
// name the id gives: kgqa.types.name_from_id), types STRING[], is_literal); the caller passes only ids
// not stored yet (graph/stored_entities). An entity no record labels is labelled with its name.
// (Not MERGE over an UNWIND of a list parameter: its cost grows with the table, per batch.)
LOAD FROM kgqa_rows
CREATE (:Entity {id: eid, label: coalesce(label, name, ''), types: types, is_literal: is_literal});
