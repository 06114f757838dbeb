// The entities that carry the given label texts (SimGRAG node candidates, CoE start nodes).
// params: $hashes STRING[]   returns: hash, id, label, types, is_literal
UNWIND $hashes AS th
MATCH (t:kgqa_LabelText {hash: th})-[:kgqa_LabelOf]->(e:Entity)
RETURN t.hash, e.id, e.label, e.types, e.is_literal;
