// The largest node offset of a stored text (a read-only store's hub vector table reads the texts in
// windows of offsets up to it; deleted texts leave gaps).
// params: none   returns: offset or null
MATCH (t:kgqa_EmbeddedText)
RETURN max(offset(id(t)));
