-- Record why a question this worker holds cannot be answered (the SQL error kgqa.wait raises).
-- params: id bigint, worker text, error text, sqlstate text
UPDATE kgqa.queue SET status = 'failed', error = %(error)s::text, sqlstate = %(sqlstate)s::text,
       finished_at = now(), lease_until = NULL
WHERE id = %(id)s::bigint AND leased_by = %(worker)s::text;
