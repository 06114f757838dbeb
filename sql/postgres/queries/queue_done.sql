-- Store the reply of a question this worker holds.
-- params: id bigint, worker text, reply jsonb (text)
UPDATE kgqa.queue SET status = 'done', reply = %(reply)s::jsonb, finished_at = now(), lease_until = NULL
WHERE id = %(id)s::bigint AND leased_by = %(worker)s::text;
