// Hashes of the stored LabelText nodes.
// returns: hash
MATCH (t:LabelText) RETURN t.hash;
