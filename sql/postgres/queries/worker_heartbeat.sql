-- A worker's heartbeat: its row in kgqa.workers, and the leases of the questions it works on extended.
-- params: worker text, index_name text, pid int, lease_s double
WITH beat AS (
    INSERT INTO kgqa.workers (worker_id, index_name, pid) VALUES (%(worker)s::text, %(index_name)s::text, %(pid)s::integer)
    ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = now()
)
UPDATE kgqa.queue SET lease_until = now() + make_interval(secs => %(lease_s)s::double precision)
WHERE leased_by = %(worker)s::text AND status = 'running';
