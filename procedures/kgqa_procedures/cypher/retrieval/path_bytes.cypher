// How many paths are stored and how many characters their hash, hub id, text and triples hold (what a
// primed read-only store's path table would keep, kgqa/vectorstores/path_table.py).
// params: none   returns: paths, characters
MATCH (p:kgqa_HubPath)
RETURN count(*), sum(size(p.hash) + size(p.hub_id) + size(p.text) + size(p.triples));
