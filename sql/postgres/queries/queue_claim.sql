-- Take the oldest open question of an index: queued, or running under a lease that ran out (its worker
-- died); other workers skip the row while this transaction holds it.
-- params: index_name text, worker text, lease_s double   returns: id, question, options
UPDATE kgqa.queue q
SET status = 'running', leased_by = %(worker)s::text, attempts = q.attempts + 1,
    lease_until = now() + make_interval(secs => %(lease_s)s::double precision)
WHERE q.id = (SELECT o.id FROM kgqa.queue o
              WHERE o.index_name = %(index_name)s::text
                AND (o.status = 'queued' OR (o.status = 'running' AND o.lease_until < now()))
              ORDER BY o.id LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING q.id, q.question, q.options::text;
