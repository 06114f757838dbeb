// Every embedded text (the unique texts of the index; the scale benchmark re-embeds them alone).
// returns: hash, text
MATCH (t:kgqa_EmbeddedText) RETURN t.hash, t.text;
