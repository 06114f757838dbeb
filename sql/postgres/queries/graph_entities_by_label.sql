-- Non-literal entities whose label contains `label` (case-insensitive): exact matches first, then shorter.
-- params: label text, lim int   returns: id, label, types, is_literal, exact
SELECT e.id, e.label, e.types, e.is_literal, lower(e.label) = lower(%(label)s::text) AS exact
FROM kgqa.entities e
WHERE NOT e.is_literal AND strpos(lower(e.label), lower(%(label)s::text)) > 0
ORDER BY exact DESC, length(e.label), e.id
LIMIT %(lim)s::int;
