// Set a metadata value (JSON text).
// params: $key STRING, $value STRING
MERGE (m:kgqa_KgqaMeta {key: $key}) SET m.value = $value;
