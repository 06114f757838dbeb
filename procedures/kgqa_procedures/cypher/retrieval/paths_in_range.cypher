// The stored paths whose node offsets lie in [$lo, $hi) (a primed read-only store reads every path in
// windows into memory, kgqa/vectorstores/path_table.py).
// params: $lo INT64, $hi INT64   returns: hash, hub_id, text, triples
MATCH (p:kgqa_HubPath) WHERE offset(id(p)) >= $lo AND offset(id(p)) < $hi
RETURN p.hash, p.hub_id, p.text, p.triples;
