// Forget applied schema scripts whose name starts with $prefix (their tables were dropped).
// params: $prefix STRING
MATCH (m:kgqa_SchemaMigration) WHERE starts_with(m.name, $prefix) DELETE m;
