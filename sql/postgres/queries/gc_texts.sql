-- Delete embedded texts no HubVector uses any more.
-- returns: deleted
WITH gone AS (
    DELETE FROM kgqa.embedded_texts t
    WHERE NOT EXISTS (SELECT 1 FROM kgqa.hub_vectors v WHERE v.text_hash = t.hash)
    RETURNING 1
)
SELECT count(*) FROM gone;
