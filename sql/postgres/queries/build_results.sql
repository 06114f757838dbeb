-- The counts of the done batches of a build, in batch order.
-- params: build_id text   returns: result (text)
SELECT result::text FROM kgqa.build_queue WHERE build_id = %(build_id)s::text AND status = 'done' ORDER BY batch_no;
