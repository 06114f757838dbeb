-- Entities, resources and literals alike, whose id is `text` or whose label contains it
-- (case-insensitive; '' = any), of type `type` ('' = any type): exact matches first, then resources
-- (explore/search_entities.cypher's twin).
-- params: text text, type text, lim int   returns: id, label, types, is_literal, exact
SELECT e.id, e.label, e.types, e.is_literal, (e.id = %(text)s::text OR lower(e.label) = lower(%(text)s::text)) AS exact
FROM kgqa.entities e
WHERE (%(text)s::text = '' OR e.id = %(text)s::text OR strpos(lower(e.label), lower(%(text)s::text)) > 0)
  AND (%(type)s::text = '' OR %(type)s::text = ANY(e.types))
ORDER BY exact DESC, e.is_literal, length(e.label), e.id COLLATE "C"
LIMIT %(lim)s::int;
