// Mark hubs dirty (idempotent: a hub marked twice keeps its first mark time).
// params: $ids STRING[]
UNWIND $ids AS hid
MERGE (d:kgqa_DirtyHub {id: hid})
ON CREATE SET d.marked_at = current_timestamp();
