-- Merge the staged entities: new ones are added; a stored one keeps its label unless a new one is
-- given, gains the new types, and stays a literal once it was one (as the Kùzu loader merges).
-- returns: added (one row per new entity)
WITH merged AS (
    INSERT INTO kgqa.entities AS e (id, label, types, is_literal)
    SELECT id, coalesce(label, ''), coalesce(types, '{}'), is_literal FROM kgqa_stage_entities
    ON CONFLICT (id) DO UPDATE SET
        label = CASE WHEN EXCLUDED.label <> '' THEN EXCLUDED.label ELSE e.label END,
        types = e.types || ARRAY(SELECT x FROM unnest(EXCLUDED.types) AS x WHERE NOT x = ANY(e.types)),
        is_literal = e.is_literal OR EXCLUDED.is_literal
    WHERE (EXCLUDED.label <> '' AND EXCLUDED.label IS DISTINCT FROM e.label)
       OR NOT EXCLUDED.types <@ e.types OR (EXCLUDED.is_literal AND NOT e.is_literal)
    RETURNING (xmax = 0) AS added
)
SELECT count(*) FILTER (WHERE added) FROM merged;
