// Hashes of the stored LabelText nodes.
// returns: hash
MATCH (t:kgqa_LabelText) RETURN t.hash;
