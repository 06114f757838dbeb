// Names of the indexes on the embedded-text table.
// returns: index_name
CALL SHOW_INDEXES() WHERE table_name = 'kgqa_EmbeddedText' RETURN index_name;
