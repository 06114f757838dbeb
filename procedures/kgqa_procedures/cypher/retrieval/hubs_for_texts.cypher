// Which hubs embed the given texts (the direct strategy expands ANN hits, unique texts, to hubs).
// (An IN filter on the texts, then the Embeds edges backwards: about 3x faster than an UNWIND.)
// params: $hashes STRING[]   returns: text_hash, hub
MATCH (p:HubPath)-[:Embeds]->(t:EmbeddedText)
WHERE t.hash IN $hashes
RETURN DISTINCT t.hash, p.hub_id;
