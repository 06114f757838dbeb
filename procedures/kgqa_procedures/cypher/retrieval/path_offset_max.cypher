// The largest node offset of a stored path (a primed read-only store reads the paths in windows of
// offsets up to it; deleted paths leave gaps).
// params: none   returns: offset or null
MATCH (p:kgqa_HubPath)
RETURN max(offset(id(p)));
