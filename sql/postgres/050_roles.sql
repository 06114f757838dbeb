-- scope: shared (roles and grants of the question queue, for every index of this database)
-- Two group roles (NOLOGIN; GRANT them to login roles), names from `kgqa sql install --asker-role
-- --worker-role` (kgqa/postgres/sql_layer.py sets kgqa.install_asker_role/_worker_role for this
-- transaction), else the names kept from the last install, else kgqa_asker and kgqa_worker:
--   asker:  submits, CALLs kgqa.ask and reads its own questions and answers (kgqa.wait, kgqa.my_questions;
--           row-level security on kgqa.queue), may insert only question, index_name and options (never a
--           status or a reply), at most kgqa.queue_caps questions queued; no access to the index tables.
--   worker: takes and answers queued questions (kgqa serve), keeps kgqa.workers, logs kgqa.answers and
--           reads and writes the index tables of every index (kgqa index update, load).
-- Recipe: docs/postgres-roles.md.
INSERT INTO kgqa.roles (kind, role_name)
SELECT k.kind, coalesce(nullif(current_setting('kgqa.install_' || k.kind || '_role', true), ''), 'kgqa_' || k.kind)
FROM (VALUES ('asker'), ('worker')) AS k(kind)
ON CONFLICT (kind) DO UPDATE SET role_name = EXCLUDED.role_name
WHERE nullif(current_setting('kgqa.install_' || EXCLUDED.kind || '_role', true), '') IS NOT NULL;

INSERT INTO kgqa.queue_caps (role_name, max_queued)
SELECT '*', current_setting('kgqa.install_queue_cap', true)::integer
WHERE nullif(current_setting('kgqa.install_queue_cap', true), '') IS NOT NULL
ON CONFLICT (role_name) DO UPDATE SET max_queued = EXCLUDED.max_queued;

DO $roles$
DECLARE
    _asker text := (SELECT r.role_name FROM kgqa.roles r WHERE r.kind = 'asker');
    _worker text := (SELECT r.role_name FROM kgqa.roles r WHERE r.kind = 'worker');
    _role text;
    _schema text;
BEGIN
    FOREACH _role IN ARRAY ARRAY[_asker, _worker] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = _role) THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN', _role);
        END IF;
    END LOOP;
    REVOKE ALL ON kgqa.queue, kgqa.workers, kgqa.answers, kgqa.indexes, kgqa.roles, kgqa.queue_caps FROM PUBLIC;
    -- the schema is open, so that a role without rights reaches kgqa.check_asker's message naming the GRANT
    GRANT USAGE ON SCHEMA kgqa TO PUBLIC;
    -- askers: their own rows only (policy queue_own), and only these columns on insert
    EXECUTE format('GRANT SELECT, INSERT (index_name, question, options) ON kgqa.queue TO %I', _asker);
    EXECUTE format('GRANT USAGE ON SEQUENCE kgqa.queue_id_seq TO %I', _asker);
    EXECUTE format('GRANT SELECT ON kgqa.queue_caps, kgqa.my_questions TO %I', _asker);
    -- workers: every row of the queue (policy queue_worker), the workers table, the answers log, the index
    EXECUTE format('GRANT SELECT, UPDATE ON kgqa.queue TO %I', _worker);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON kgqa.workers TO %I', _worker);
    EXECUTE format('GRANT SELECT, INSERT ON kgqa.answers TO %I', _worker);
    EXECUTE format('GRANT USAGE ON SEQUENCE kgqa.answers_id_seq TO %I', _worker);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON kgqa.indexes TO %I', _worker);
    DROP POLICY IF EXISTS queue_worker ON kgqa.queue;
    EXECUTE format('CREATE POLICY queue_worker ON kgqa.queue TO %I USING (true) WITH CHECK (true)', _worker);
    FOR _schema IN SELECT 'kgqa_' || i.name FROM kgqa.indexes i
                   WHERE EXISTS (SELECT 1 FROM pg_namespace n WHERE n.nspname = 'kgqa_' || i.name) LOOP
        EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', _schema, _worker);
        EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA %I TO %I', _schema, _worker);
        EXECUTE format('GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA %I TO %I', _schema, _worker);
        EXECUTE format('GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA %I TO %I', _schema, _worker);
    END LOOP;
END $roles$;
