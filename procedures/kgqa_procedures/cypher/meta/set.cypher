// Set a metadata value (JSON text).
// params: $key STRING, $value STRING
MERGE (m:KgqaMeta {key: $key}) SET m.value = $value;
