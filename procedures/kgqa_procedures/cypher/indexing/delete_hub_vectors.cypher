// Delete the HubVectors (Embeds edges) of the given hubs: step 1 of 3 of deleting hubs.
// Hubs are deleted edge by edge, never with DETACH DELETE: Kùzu 0.11.3 replays a committed
// DETACH DELETE wrongly from its WAL after a crash (it removes other rels and leaves phantom ones).
// params: $ids STRING[]
UNWIND $ids AS hid
MATCH (:kgqa_Hub {id: hid})-[:kgqa_HasPath]->(:kgqa_HubPath)-[e:kgqa_Embeds]->(:kgqa_EmbeddedText)
DELETE e;
