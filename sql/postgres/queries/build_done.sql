-- Mark a batch this worker still holds done, with its counts (in the transaction that wrote it: no
-- row back means the lease was lost to another worker, and the caller rolls the batch back).
-- params: build_id text, batch_no int, worker text, result jsonb (text)   returns: batch_no
UPDATE kgqa.build_queue
SET status = 'done', result = %(result)s::jsonb, finished_at = now(), lease_until = NULL
WHERE build_id = %(build_id)s::text AND batch_no = %(batch_no)s::integer
  AND leased_by = %(worker)s::text AND status = 'running'
RETURNING batch_no;
