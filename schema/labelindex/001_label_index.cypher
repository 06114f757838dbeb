// The label index of the retrievers from the seed papers (DiFaR, SimGRAG, Chain of Explorations).
// Every text is embedded once (keyed by text hash, as EmbeddedText); each table has its own HNSW index
// (cosine), created after the first bulk load. {{dim}} is the embedding dimension (fixed per index).
// TripleText: the label form "(subject, predicate, object)" of graph triples (DiFaR); its TripleTextOf
// edges lead to the subject entity of every triple with that text (predicate and object id on the edge).
CREATE NODE TABLE IF NOT EXISTS kgqa_TripleText(hash STRING PRIMARY KEY, text STRING, embedding FLOAT[{{dim}}], raw BLOB);
CREATE REL TABLE IF NOT EXISTS kgqa_TripleTextOf(FROM kgqa_TripleText TO Entity, predicate STRING, object_id STRING);
// LabelText: entity labels (SimGRAG node candidates, CoE node exploration); LabelOf leads to every entity
// with that label. PredicateText: predicate labels (SimGRAG relation candidates, CoE relation ranking).
CREATE NODE TABLE IF NOT EXISTS kgqa_LabelText(hash STRING PRIMARY KEY, text STRING, embedding FLOAT[{{dim}}], raw BLOB);
CREATE REL TABLE IF NOT EXISTS kgqa_LabelOf(FROM kgqa_LabelText TO Entity);
CREATE NODE TABLE IF NOT EXISTS kgqa_PredicateText(hash STRING PRIMARY KEY, text STRING, embedding FLOAT[{{dim}}], raw BLOB);
