// Every predicate text with its embedding as float32 bytes (few: ranked exactly in memory).
// returns: text, raw
MATCH (t:kgqa_PredicateText) RETURN t.text, t.raw;
