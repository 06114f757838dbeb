// Create HubVectors: a path embedded at a level through a (shared) embedded text.
// params: $rows LIST<STRUCT(path STRING, text STRING, level STRING)>
UNWIND $rows AS row
MATCH (p:HubPath {hash: row.path}), (t:EmbeddedText {hash: row.text})
CREATE (p)-[:Embeds {level: row.level}]->(t);
