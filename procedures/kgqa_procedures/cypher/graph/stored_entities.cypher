// Which of the entity ids in the Arrow table bound to kgqa_rows (column eid) are stored.
// returns: eid
LOAD FROM kgqa_rows
MATCH (e:Entity {id: eid})
RETURN eid;
