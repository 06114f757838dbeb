// Delete embedded texts no HubVector uses any more.
// returns: deleted
MATCH (t:EmbeddedText)
WHERE NOT EXISTS { MATCH (:HubPath)-[:Embeds]->(t) }
DELETE t
RETURN count(*);
