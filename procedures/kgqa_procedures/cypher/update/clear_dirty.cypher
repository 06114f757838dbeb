// Delete the marks of hubs that were rebuilt (called after the rebuild committed).
// params: $ids STRING[]
UNWIND $ids AS hid
MATCH (d:kgqa_DirtyHub {id: hid})
DELETE d;
