// Create HubVectors (a path embedded at a level through a shared embedded text) from an Arrow
// table bound to kgqa_rows (columns path, text, level). The two MATCHes are chained with WITH:
// written as one comma-separated pattern, Kùzu plans a cross product of both tables.
// (Not COPY Embeds: in Kùzu 0.11.3 rolling back a COPY into a non-empty rel table empties it.)
LOAD FROM kgqa_rows
MATCH (p:HubPath {hash: path})
WITH p, text, level
MATCH (t:EmbeddedText {hash: text})
CREATE (p)-[:Embeds {level: level}]->(t);
