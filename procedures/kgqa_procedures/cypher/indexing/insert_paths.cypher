// Create hub paths and attach them to their hub.
// params: $rows LIST<STRUCT(hash STRING, hub_id STRING, text STRING, triples STRING, length INT64)>
UNWIND $rows AS row
MATCH (h:Hub {id: row.hub_id})
CREATE (h)-[:HasPath]->(:HubPath {hash: row.hash, hub_id: row.hub_id, text: row.text,
                                  triples: row.triples, length: row.length});
