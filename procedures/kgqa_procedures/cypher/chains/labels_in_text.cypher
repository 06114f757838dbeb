// Entities whose label occurs in a text (the question), longest first: topic candidates.
// params: $text STRING (lower-cased), $min_len INT64, $limit INT64   returns: id, label, types, is_literal
MATCH (e:Entity)
WHERE size(e.label) >= $min_len AND contains($text, lower(e.label))
RETURN e.id, e.label, e.types, e.is_literal
ORDER BY size(e.label) DESC, e.id LIMIT $limit;
