// A metadata value (JSON text).
// params: $key STRING   returns: value
MATCH (m:kgqa_KgqaMeta {key: $key}) RETURN m.value;
