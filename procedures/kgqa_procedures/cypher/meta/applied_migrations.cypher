// Names of the applied schema scripts.
// returns: name
MATCH (m:SchemaMigration) RETURN m.name;
