// Non-literal entities whose label equals $label (case-insensitive), then those containing it.
// params: $label STRING, $limit INT64   returns: id, label, types, is_literal, exact
MATCH (e:Entity)
WHERE NOT e.is_literal AND contains(lower(e.label), lower($label))
RETURN e.id, e.label, e.types, e.is_literal, lower(e.label) = lower($label) AS exact
ORDER BY exact DESC, size(e.label), e.id LIMIT $limit;
