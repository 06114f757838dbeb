// Delete the hub nodes themselves (after delete_hub_paths: they have no edges left).
// params: $ids STRING[]
UNWIND $ids AS hid
MATCH (h:kgqa_Hub {id: hid})
DELETE h;
