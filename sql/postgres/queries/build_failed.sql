-- Record why a batch this worker holds cannot be built (the coordinator stops the build with it).
-- params: build_id text, batch_no int, worker text, error text
UPDATE kgqa.build_queue SET status = 'failed', error = %(error)s::text, finished_at = now(), lease_until = NULL
WHERE build_id = %(build_id)s::text AND batch_no = %(batch_no)s::integer AND leased_by = %(worker)s::text;
