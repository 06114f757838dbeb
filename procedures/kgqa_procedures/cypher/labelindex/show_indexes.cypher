// The vector indexes of the label-index tables.
// returns: table_name, index_name
CALL SHOW_INDEXES() WHERE table_name = 'kgqa_TripleText' OR table_name = 'kgqa_LabelText' OR table_name = 'kgqa_PredicateText'
RETURN table_name, index_name;
