// Every HubVector as node offsets with its level, walked from the hubs as hub_vectors_at.cypher walks
// them (a read-only store's hub vector table, kgqa/vectorstores/hub_vector_table.py).
// params: none   returns: text offset, path offset, hub offset, level
MATCH (h:kgqa_Hub)-[:kgqa_HasPath]->(p:kgqa_HubPath)-[e:kgqa_Embeds]->(t:kgqa_EmbeddedText)
RETURN offset(id(t)), offset(id(p)), offset(id(h)), e.level;
