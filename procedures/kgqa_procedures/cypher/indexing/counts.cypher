// Index size: hubs, paths, HubVectors and unique embedded texts.
// returns: hubs, paths, vectors, texts
OPTIONAL MATCH (h:kgqa_Hub) WITH count(h) AS hubs
OPTIONAL MATCH (p:kgqa_HubPath) WITH hubs, count(p) AS paths
OPTIONAL MATCH ()-[e:kgqa_Embeds]->() WITH hubs, paths, count(e) AS vectors
OPTIONAL MATCH (t:kgqa_EmbeddedText)
RETURN hubs, paths, vectors, count(t) AS texts;
