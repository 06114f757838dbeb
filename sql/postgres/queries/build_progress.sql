-- Where the current build stands: batches and hubs done, batches open, the first failure.
-- returns: build_id, batches, done, hubs_done, open, failed_error
SELECT build_id, count(*), count(*) FILTER (WHERE status = 'done'),
       coalesce(sum(cardinality(hub_ids)) FILTER (WHERE status = 'done'), 0),
       count(*) FILTER (WHERE status IN ('queued', 'running')),
       min(error) FILTER (WHERE status = 'failed')
FROM kgqa.build_queue GROUP BY build_id;
