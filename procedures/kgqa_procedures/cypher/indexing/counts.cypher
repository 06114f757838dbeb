// Index size: hubs, paths, HubVectors and unique embedded texts.
// returns: hubs, paths, vectors, texts
OPTIONAL MATCH (h:Hub) WITH count(h) AS hubs
OPTIONAL MATCH (p:HubPath) WITH hubs, count(p) AS paths
OPTIONAL MATCH ()-[e:Embeds]->() WITH hubs, paths, count(e) AS vectors
OPTIONAL MATCH (t:EmbeddedText)
RETURN hubs, paths, vectors, count(t) AS texts;
