// Names of the applied schema scripts.
// returns: name
MATCH (m:kgqa_SchemaMigration) RETURN m.name;
