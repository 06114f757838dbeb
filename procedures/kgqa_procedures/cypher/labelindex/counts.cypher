// Sizes of the label index: triple texts, triple links, label texts, label links, predicate texts.
// returns: five counts
MATCH (a:kgqa_TripleText) WITH count(a) AS triple_texts
OPTIONAL MATCH (:kgqa_TripleText)-[r:kgqa_TripleTextOf]->(:Entity) WITH triple_texts, count(r) AS triple_links
OPTIONAL MATCH (b:kgqa_LabelText) WITH triple_texts, triple_links, count(b) AS label_texts
OPTIONAL MATCH (:kgqa_LabelText)-[l:kgqa_LabelOf]->(:Entity) WITH triple_texts, triple_links, label_texts, count(l) AS label_links
OPTIONAL MATCH (c:kgqa_PredicateText)
RETURN triple_texts, triple_links, label_texts, label_links, count(c);
