// Create hub paths and attach them to their hub, from an Arrow table bound to kgqa_rows
// (columns hash, hub_id, text, triples, length). Kùzu 0.11.3 plans the MATCH as a hash join over one
// scan of the Hub table (EXPLAIN; ~50 ms a batch at 10^6 triples, bench/write_batches.py); an UNWIND of
// a list parameter with the same MATCH plans the same join.
LOAD FROM kgqa_rows
MATCH (h:kgqa_Hub {id: hub_id})
CREATE (h)-[:kgqa_HasPath]->(:kgqa_HubPath {hash: hash, hub_id: hub_id, text: text, triples: triples, length: length});
