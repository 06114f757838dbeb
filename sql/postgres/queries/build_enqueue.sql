-- Queue the hub batches of build `build_id` (a JSON array of {"ids": [...], "signatures": [...],
-- "labels": [...]}, one per batch, numbered from 1 in order); rows of earlier builds go.
-- params: build_id text, batches jsonb (text)   returns: batches queued
WITH gone AS (DELETE FROM kgqa.build_queue WHERE build_id <> %(build_id)s::text),
queued AS (
    INSERT INTO kgqa.build_queue (build_id, batch_no, hub_ids, signatures, labels)
    SELECT %(build_id)s::text, b.n,
           ARRAY(SELECT jsonb_array_elements_text(b.v -> 'ids')),
           ARRAY(SELECT jsonb_array_elements_text(b.v -> 'signatures')),
           ARRAY(SELECT jsonb_array_elements_text(b.v -> 'labels'))
    FROM jsonb_array_elements(%(batches)s::jsonb) WITH ORDINALITY AS b(v, n)
    RETURNING 1
)
SELECT count(*) FROM queued;
