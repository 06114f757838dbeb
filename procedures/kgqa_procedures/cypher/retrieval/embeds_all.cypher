// Every HubVector as (text node offset, path node offset): the Embeds edges, for a read-only store's
// text -> hub arrays (kgqa/vectorstores/text_hub_index.py).
// params: none   returns: text offset, path offset
MATCH (p:kgqa_HubPath)-[:kgqa_Embeds]->(t:kgqa_EmbeddedText)
RETURN offset(id(t)), offset(id(p));
