// The vector indexes of the label-index tables.
// returns: table_name, index_name
CALL SHOW_INDEXES() WHERE table_name = 'TripleText' OR table_name = 'LabelText' OR table_name = 'PredicateText'
RETURN table_name, index_name;
