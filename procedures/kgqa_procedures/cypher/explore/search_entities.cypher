// Entities, resources and literals alike, whose id is $text or whose label contains it
// (case-insensitive; '' = any), of type $type ('' = any type): exact matches first, then resources.
// params: $text STRING, $type STRING, $limit INT64   returns: id, label, types, is_literal, exact
MATCH (e:Entity)
WHERE ($text = '' OR e.id = $text OR contains(lower(e.label), lower($text)))
  AND ($type = '' OR list_contains(e.types, $type))
RETURN e.id, e.label, e.types, e.is_literal, (e.id = $text OR lower(e.label) = lower($text)) AS exact
ORDER BY exact DESC, e.is_literal, size(e.label), e.id LIMIT $limit;
