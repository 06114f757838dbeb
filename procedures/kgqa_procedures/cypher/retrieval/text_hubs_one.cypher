// How many hubs embed one text, and the first $limit of them by id (text_hubs.cypher for one text,
// found through the primary-key index: the cost does not grow with the number of stored texts).
// params: $hash STRING, $limit INT64   returns: text_hash, fanout, hubs (at most $limit)
MATCH (t:kgqa_EmbeddedText {hash: $hash})<-[:kgqa_Embeds]-(p:kgqa_HubPath)
WITH t.hash AS text_hash, collect(DISTINCT p.hub_id) AS hubs
RETURN text_hash, size(hubs), list_slice(list_sort(hubs), 1, $limit);
