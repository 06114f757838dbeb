// Every stored path's node offset and hub (a read-only store's text -> hub arrays,
// kgqa/vectorstores/text_hub_index.py; offsets are stable while no process can write).
// params: none   returns: path offset, hub_id
MATCH (p:kgqa_HubPath)
RETURN offset(id(p)), p.hub_id;
