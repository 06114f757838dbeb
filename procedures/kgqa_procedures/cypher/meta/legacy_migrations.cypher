// The migration log of a database made before HubLink's tables carried the kgqa_ prefix (its table
// name is HubLink's old fixed name `SchemaMigration`, checked against the catalog).
MATCH (m:{{name:log}}) RETURN m.name;
