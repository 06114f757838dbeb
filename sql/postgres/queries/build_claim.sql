-- Take the first open batch of the index's build: queued, or running under a lease that ran out (its
-- worker died); other workers skip the row while this transaction holds it.
-- params: worker text, lease_s double   returns: build_id, batch_no, hub_ids, signatures, labels, attempts
UPDATE kgqa.build_queue q
SET status = 'running', leased_by = %(worker)s::text, attempts = q.attempts + 1,
    lease_until = now() + make_interval(secs => %(lease_s)s::double precision)
WHERE (q.build_id, q.batch_no) = (
    SELECT o.build_id, o.batch_no FROM kgqa.build_queue o
    WHERE o.status = 'queued' OR (o.status = 'running' AND o.lease_until < now())
    ORDER BY o.batch_no LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING q.build_id, q.batch_no, q.hub_ids, q.signatures, q.labels, q.attempts;
