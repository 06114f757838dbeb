-- Entities whose label (at least `min_len` long) occurs in the lower-cased `text`, longest first.
-- params: text text, min_len int, lim int   returns: id, label, types, is_literal
SELECT e.id, e.label, e.types, e.is_literal
FROM kgqa.entities e
WHERE length(e.label) >= %(min_len)s::int AND strpos(%(text)s::text, lower(e.label)) > 0
ORDER BY length(e.label) DESC, e.id
LIMIT %(lim)s::int;
