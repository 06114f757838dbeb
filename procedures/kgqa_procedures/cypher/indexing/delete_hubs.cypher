// Delete hubs with their paths and HubVectors (the Embeds edges go with the paths).
// params: $ids STRING[]
UNWIND $ids AS hid
MATCH (h:Hub {id: hid})
OPTIONAL MATCH (h)-[:HasPath]->(p:HubPath)
DETACH DELETE p, h;
