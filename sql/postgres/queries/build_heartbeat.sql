-- A build worker's heartbeat: the lease of the batch it works on extended.
-- params: worker text, lease_s double
UPDATE kgqa.build_queue SET lease_until = now() + make_interval(secs => %(lease_s)s::double precision)
WHERE leased_by = %(worker)s::text AND status = 'running';
