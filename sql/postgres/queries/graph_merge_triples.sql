-- Add the staged triples not stored yet.
-- returns: added
WITH added AS (
    INSERT INTO kgqa.triples (subject, predicate, object, predicate_id)
    SELECT DISTINCT ON (subject, predicate, object) subject, predicate, object, coalesce(predicate_id, '')
    FROM kgqa_stage_triples ORDER BY subject, predicate, object
    ON CONFLICT DO NOTHING
    RETURNING 1
)
SELECT count(*) FROM added;
