// Delete embedded texts no HubVector uses any more.
// returns: deleted
MATCH (t:kgqa_EmbeddedText)
WHERE NOT EXISTS { MATCH (:kgqa_HubPath)-[:kgqa_Embeds]->(t) }
DELETE t
RETURN count(*);
