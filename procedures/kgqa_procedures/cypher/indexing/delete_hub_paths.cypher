// Delete the paths of the given hubs with their HasPath edges (after delete_hub_vectors).
// params: $ids STRING[]
UNWIND $ids AS hid
MATCH (:Hub {id: hid})-[r:HasPath]->(p:HubPath)
DELETE r, p;
