// The HubLink index. {{dim}} is the embedding dimension (a validated integer, fixed per index).
// A HubVector (thesis §4.2.6) is one Embeds edge: hub root (HubPath.hub_id), path hash, path text,
// triples, the embedded text and its level. Identical texts share one EmbeddedText node (embedded once).
CREATE NODE TABLE IF NOT EXISTS kgqa_Hub(id STRING PRIMARY KEY, label STRING, depth INT64, path_count INT64, signature STRING, built_at TIMESTAMP);
CREATE NODE TABLE IF NOT EXISTS kgqa_HubPath(hash STRING PRIMARY KEY, hub_id STRING, text STRING, triples STRING, length INT64);
// `raw` repeats the embedding as float32 bytes: Kùzu returns BLOBs ~20x faster than FLOAT arrays.
CREATE NODE TABLE IF NOT EXISTS kgqa_EmbeddedText(hash STRING PRIMARY KEY, text STRING, embedding FLOAT[{{dim}}], raw BLOB);
CREATE REL TABLE IF NOT EXISTS kgqa_HasPath(FROM kgqa_Hub TO kgqa_HubPath);
CREATE REL TABLE IF NOT EXISTS kgqa_Embeds(FROM kgqa_HubPath TO kgqa_EmbeddedText, level STRING);
