// Every stored path's node offset, hub and hash (a read-only store's text -> hub arrays and hub
// vector table, kgqa/vectorstores/text_hub_index.py and hub_vector_table.py; offsets are stable while
// no process can write).
// params: none   returns: path offset, hub_id, hash
MATCH (p:kgqa_HubPath)
RETURN offset(id(p)), p.hub_id, p.hash;
