// Global ANN search (thesis Alg. 8) with each hit's hubs: how many hubs embed the text (its fan-out)
// and the first $limit of them by id. The hits are bound by the vector index, so their Embeds edges are
// read from them (no scan of the texts). Texts in $skip (known to be shared by many hubs) are not
// expanded: fan-out and hubs are NULL.
// params: $query FLOAT[], $k INT64, $efs INT64, $limit INT64, $skip STRING[]
// returns: hash, text, distance, fanout, hubs (at most $limit)
CALL QUERY_VECTOR_INDEX('EmbeddedText', 'embedded_text_vec', $query, $k, efs := $efs)
WITH node, distance
OPTIONAL MATCH (p:HubPath)-[:Embeds]->(node)
WHERE NOT list_contains($skip, node.hash)
WITH node, distance, collect(DISTINCT p.hub_id) AS hubs
RETURN node.hash, node.text, distance, size(hubs), list_slice(list_sort(hubs), 1, $limit);
