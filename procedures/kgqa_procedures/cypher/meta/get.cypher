// A metadata value (JSON text).
// params: $key STRING   returns: value
MATCH (m:KgqaMeta {key: $key}) RETURN m.value;
