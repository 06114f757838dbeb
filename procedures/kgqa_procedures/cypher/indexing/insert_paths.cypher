// Create hub paths and attach them to their hub, from an Arrow table bound to kgqa_rows
// (columns hash, hub_id, text, triples, length). LOAD FROM + one MATCH per row is an index lookup;
// an UNWIND of a list parameter with the same MATCH scans the Hub table for every row.
LOAD FROM kgqa_rows
MATCH (h:kgqa_Hub {id: hub_id})
CREATE (h)-[:kgqa_HasPath]->(:kgqa_HubPath {hash: hash, hub_id: hub_id, text: text, triples: triples, length: length});
