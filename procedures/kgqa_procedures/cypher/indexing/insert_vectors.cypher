// Create HubVectors (a path embedded at a level through a shared embedded text) from an Arrow
// table bound to kgqa_rows (columns path, text, level). The two MATCHes are chained with WITH:
// written as one comma-separated pattern, Kùzu plans a cross product of both tables.
// (Not COPY Embeds: in Kùzu 0.11.3 rolling back a COPY into a non-empty rel table empties it.)
LOAD FROM kgqa_rows
MATCH (p:kgqa_HubPath {hash: path})
WITH p, text, level
MATCH (t:kgqa_EmbeddedText {hash: text})
CREATE (p)-[:kgqa_Embeds {level: level}]->(t);
