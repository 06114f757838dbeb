// HubLink's metadata tables on a database whose graph is the user's own node and rel tables (the
// triple layout creates the same tables in graph/001_graph). Created by the first `index build`.
CREATE NODE TABLE IF NOT EXISTS kgqa_KgqaMeta(key STRING PRIMARY KEY, value STRING);
CREATE NODE TABLE IF NOT EXISTS kgqa_SchemaMigration(name STRING PRIMARY KEY, applied_at TIMESTAMP);
