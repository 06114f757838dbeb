// The HubVectors of the given hubs, for copying the index to another store.
// params: $ids STRING[]   returns: path_hash, level, text_hash
UNWIND $ids AS hid
MATCH (:kgqa_Hub {id: hid})-[:kgqa_HasPath]->(p:kgqa_HubPath)-[e:kgqa_Embeds]->(t:kgqa_EmbeddedText)
RETURN p.hash, e.level, t.hash
ORDER BY p.hash, e.level, t.hash;
