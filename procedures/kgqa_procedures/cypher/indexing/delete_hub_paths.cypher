// Delete the paths of the given hubs with their HasPath edges (after delete_hub_vectors).
// params: $ids STRING[]
UNWIND $ids AS hid
MATCH (:kgqa_Hub {id: hid})-[r:kgqa_HasPath]->(p:kgqa_HubPath)
DELETE r, p;
