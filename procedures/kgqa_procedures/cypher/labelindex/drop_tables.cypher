// Drop the whole label index (rebuild with another embedding model); vector indexes are dropped first.
DROP TABLE IF EXISTS kgqa_TripleTextOf;
DROP TABLE IF EXISTS kgqa_LabelOf;
DROP TABLE IF EXISTS kgqa_TripleText;
DROP TABLE IF EXISTS kgqa_LabelText;
DROP TABLE IF EXISTS kgqa_PredicateText;
