// How many hubs embed each of the given texts, and the first $limit of them by id (the direct
// strategy expands ANN hits to hubs; a venue or a predicate is shared by thousands of hubs).
// params: $hashes STRING[], $limit INT64   returns: text_hash, fanout, hubs (at most $limit)
MATCH (p:kgqa_HubPath)-[:kgqa_Embeds]->(t:kgqa_EmbeddedText)
WHERE t.hash IN $hashes
WITH t.hash AS text_hash, collect(DISTINCT p.hub_id) AS hubs
RETURN text_hash, size(hubs), list_slice(list_sort(hubs), 1, $limit);
