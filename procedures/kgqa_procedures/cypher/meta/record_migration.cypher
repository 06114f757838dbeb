// Record that a schema script was applied.
// params: $name STRING
MERGE (m:kgqa_SchemaMigration {name: $name}) ON CREATE SET m.applied_at = current_timestamp();
