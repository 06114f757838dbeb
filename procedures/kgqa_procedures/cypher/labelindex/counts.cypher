// Sizes of the label index: triple texts, triple links, label texts, label links, predicate texts.
// returns: five counts
MATCH (a:TripleText) WITH count(a) AS triple_texts
OPTIONAL MATCH (:TripleText)-[r:TripleTextOf]->(:Entity) WITH triple_texts, count(r) AS triple_links
OPTIONAL MATCH (b:LabelText) WITH triple_texts, triple_links, count(b) AS label_texts
OPTIONAL MATCH (:LabelText)-[l:LabelOf]->(:Entity) WITH triple_texts, triple_links, label_texts, count(l) AS label_links
OPTIONAL MATCH (c:PredicateText)
RETURN triple_texts, triple_links, label_texts, label_links, count(c);
