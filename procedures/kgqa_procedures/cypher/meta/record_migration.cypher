// Record that a schema script was applied.
// params: $name STRING
MERGE (m:SchemaMigration {name: $name}) ON CREATE SET m.applied_at = current_timestamp();
