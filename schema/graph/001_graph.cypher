// The knowledge graph: entities (resources and literals) and directed triples.
CREATE NODE TABLE IF NOT EXISTS Entity(id STRING PRIMARY KEY, label STRING, types STRING[], is_literal BOOLEAN);
CREATE REL TABLE IF NOT EXISTS Triple(FROM Entity TO Entity, predicate STRING, predicate_id STRING);
// Key/value metadata (schema version, index metadata as JSON).
CREATE NODE TABLE IF NOT EXISTS kgqa_KgqaMeta(key STRING PRIMARY KEY, value STRING);
CREATE NODE TABLE IF NOT EXISTS kgqa_SchemaMigration(name STRING PRIMARY KEY, applied_at TIMESTAMP);
