// The HubVectors that embed the given texts: which hub paths, at which level.
// params: $hashes STRING[]   returns: text_hash, hub, path_hash, level, text
UNWIND $hashes AS th
MATCH (p:HubPath)-[e:Embeds]->(t:EmbeddedText {hash: th})
RETURN t.hash, p.hub_id, p.hash, e.level, t.text;
