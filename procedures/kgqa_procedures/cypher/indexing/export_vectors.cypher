// The HubVectors of the given hubs, for copying the index to another store.
// params: $ids STRING[]   returns: path_hash, level, text_hash
UNWIND $ids AS hid
MATCH (:Hub {id: hid})-[:HasPath]->(p:HubPath)-[e:Embeds]->(t:EmbeddedText)
RETURN p.hash, e.level, t.hash
ORDER BY p.hash, e.level, t.hash;
