// Drop the whole label index (rebuild with another embedding model); vector indexes are dropped first.
DROP TABLE IF EXISTS TripleTextOf;
DROP TABLE IF EXISTS LabelOf;
DROP TABLE IF EXISTS TripleText;
DROP TABLE IF EXISTS LabelText;
DROP TABLE IF EXISTS PredicateText;
