-- Index builds that several processes share (`kgqa index build --store pgvector --workers N`, `kgqa index
-- worker`): the coordinator puts the build's hub batches here; workers on any machine with the graph and
-- the DSN take one with FOR UPDATE SKIP LOCKED, hold a lease on it while they work (kept alive by a
-- heartbeat), and write its hubs, paths, texts and vectors in the transaction that marks it done. A
-- batch whose lease ran out (its worker died) is taken again. One table per index (schema kgqa_<name>).
CREATE TABLE IF NOT EXISTS kgqa.build_queue (
    build_id    text NOT NULL,                    -- one coordinator run
    batch_no    integer NOT NULL,
    hub_ids     text[] NOT NULL,                  -- the hub roots of the batch
    signatures  text[] NOT NULL,                  -- their stored signatures (path-hash digests; '' = build anew)
    labels      text[] NOT NULL,
    status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    leased_by   text,                             -- host:pid:n of the worker holding it
    lease_until timestamptz,
    attempts    integer NOT NULL DEFAULT 0,
    result      jsonb,                            -- the batch's counts, as the build report sums them
    error       text,
    finished_at timestamptz,
    PRIMARY KEY (build_id, batch_no)
);
CREATE INDEX IF NOT EXISTS build_queue_open ON kgqa.build_queue (batch_no) WHERE status IN ('queued', 'running');
