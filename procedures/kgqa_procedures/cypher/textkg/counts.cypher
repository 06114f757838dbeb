// Passages and assertions of text-built graphs.
// returns: passages, asserts
MATCH (p:Passage) WITH count(p) AS passages
OPTIONAL MATCH (:Passage)-[a:Asserts]->(:Entity)
RETURN passages, count(a);
