-- scope: shared (every object here is in the kgqa schema, for all indexes; kgqa/postgres/indexes.py)
-- Text in, answer out, inside Postgres with no Python in it: questions go into kgqa.queue, the
-- `kgqa serve` processes of the index (workers) take them with FOR UPDATE SKIP LOCKED, answer them
-- with the library and write the reply back. A worker keeps a heartbeat in kgqa.workers and a lease
-- on the question it works on; a question whose lease ran out (its worker died) is taken again.
--   SELECT kgqa.submit('Which papers ...?');            an id at once (works inside a transaction)
--   CALL kgqa.ask('Which papers ...?');                  waits: answer, result, sources, triples
--   SELECT * FROM kgqa.wait(42);                         waits for a question submitted before
-- Errors are SQL errors: 55000 no worker runs for the index, 57014 no answer within the timeout
-- (setting kgqa.ask_timeout, seconds, default 60), 22023 bad arguments, the library's own
-- failure (e.g. no topic entity found) as 22023 with its message, 42501 a role that is not an asker
-- (the message names the GRANT), 53400 a role past its cap of queued questions, 2D000 CALL kgqa.ask
-- inside a transaction block (the message names the fix). A NULL question gives NULL.
-- Roles (050_roles.sql, docs/postgres-roles.md): row-level security keys every question on the role that
-- submitted it; an asker reads only its own, and may insert only the question, its index and options.

CREATE TABLE IF NOT EXISTS kgqa.queue (
    id           bigserial PRIMARY KEY,
    index_name   text NOT NULL,
    question     text NOT NULL,
    options      jsonb NOT NULL DEFAULT '{}',
    status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    submitted_at timestamptz NOT NULL DEFAULT now(),
    leased_by    text,
    lease_until  timestamptz,
    attempts     integer NOT NULL DEFAULT 0,
    reply        jsonb,                           -- the answer as `kgqa ask --json` prints it
    error        text,
    sqlstate     text,
    finished_at  timestamptz,
    submitted_by text NOT NULL DEFAULT current_user  -- the role that asked (set by kgqa.queue_guard)
);
ALTER TABLE kgqa.queue ADD COLUMN IF NOT EXISTS submitted_by text NOT NULL DEFAULT current_user;
CREATE INDEX IF NOT EXISTS queue_by_role ON kgqa.queue (submitted_by) WHERE status = 'queued';
ALTER TABLE kgqa.answers ADD COLUMN IF NOT EXISTS result jsonb;  -- (schema/postgres/006: here too, as the owner)
ALTER TABLE kgqa.indexes ADD COLUMN IF NOT EXISTS is_default boolean NOT NULL DEFAULT false;

-- The asker and worker roles of this database (names set by `kgqa sql install --asker-role/--worker-role`)
-- and the cap on questions one role may have queued at once ('*': every role without its own row).
CREATE TABLE IF NOT EXISTS kgqa.roles (
    kind      text PRIMARY KEY CHECK (kind IN ('asker', 'worker')),
    role_name text NOT NULL
);
CREATE TABLE IF NOT EXISTS kgqa.queue_caps (
    role_name  text PRIMARY KEY,
    max_queued integer NOT NULL CHECK (max_queued >= 0)
);
INSERT INTO kgqa.queue_caps VALUES ('*', 100) ON CONFLICT DO NOTHING;

-- Every question row belongs to the role that inserted it; past the role's cap it is refused.
CREATE OR REPLACE FUNCTION kgqa.queue_guard() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
    _cap integer;
    _queued bigint;
BEGIN
    NEW.submitted_by := current_user;
    SELECT c.max_queued INTO _cap FROM kgqa.queue_caps c
    WHERE c.role_name IN (current_user, '*') ORDER BY c.role_name = '*' LIMIT 1;
    PERFORM pg_advisory_xact_lock(hashtext('kgqa.queue:' || current_user));
    SELECT count(*) INTO _queued FROM kgqa.queue q WHERE q.submitted_by = current_user AND q.status = 'queued';
    IF _cap IS NOT NULL AND _queued >= _cap THEN
        RAISE EXCEPTION 'kgqa: role % has % questions queued, its limit; wait for their answers', current_user, _queued
            USING ERRCODE = 'configuration_limit_exceeded',
                  HINT = 'the limit per role is kgqa.queue_caps (role_name ''*'' for every role)';
    END IF;
    RETURN NEW;
END $fn$;
DROP TRIGGER IF EXISTS queue_guard ON kgqa.queue;
CREATE TRIGGER queue_guard BEFORE INSERT ON kgqa.queue FOR EACH ROW EXECUTE FUNCTION kgqa.queue_guard();

ALTER TABLE kgqa.queue ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS queue_own ON kgqa.queue;
CREATE POLICY queue_own ON kgqa.queue USING (submitted_by = current_user) WITH CHECK (submitted_by = current_user);

-- An asker's own questions (row-level security applies: each role sees its own rows).
CREATE OR REPLACE VIEW kgqa.my_questions WITH (security_invoker = true) AS
SELECT q.id, q.index_name, q.question, q.status, q.submitted_at, q.finished_at,
       q.reply ->> 'answer' AS answer, q.reply -> 'result' AS result, q.error
FROM kgqa.queue q;

-- 42501 unless `who` may ask (a member of the asker role; superusers may): the message names the GRANT.
CREATE OR REPLACE FUNCTION kgqa.check_asker(who text) RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    _asker text := (SELECT r.role_name FROM kgqa.roles r WHERE r.kind = 'asker');
BEGIN
    IF _asker IS NOT NULL AND NOT pg_has_role(who, _asker, 'MEMBER') THEN
        RAISE EXCEPTION 'kgqa: role % may not ask questions; an administrator grants it with: GRANT % TO %;',
            who, quote_ident(_asker), quote_ident(who) USING ERRCODE = 'insufficient_privilege',
            HINT = 'docs/postgres-roles.md has the recipe';
    END IF;
END $fn$;
CREATE INDEX IF NOT EXISTS queue_open ON kgqa.queue (index_name, id) WHERE status IN ('queued', 'running');

CREATE TABLE IF NOT EXISTS kgqa.workers (
    worker_id    text PRIMARY KEY,                -- host:pid:n
    index_name   text NOT NULL,
    pid          integer NOT NULL,
    started_at   timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now()
);

-- The index a call means: the argument, else the setting kgqa.index, else the default index (`kgqa sql
-- install --default`), else the only index there is.
CREATE OR REPLACE FUNCTION kgqa.resolve_index(index_name text) RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    _name text := coalesce(index_name, nullif(current_setting('kgqa.index', true), ''));
    _known text;
BEGIN
    SELECT string_agg(i.name, ', ' ORDER BY i.name) INTO _known FROM kgqa.indexes i;
    IF _name IS NULL THEN
        SELECT i.name INTO _name FROM kgqa.indexes i WHERE i.is_default;
        IF _name IS NOT NULL THEN
            RETURN _name;
        END IF;
        IF _known IS NULL OR position(',' IN _known) > 0 THEN
            RAISE EXCEPTION 'kgqa: name the index (index_name => ..., or SET kgqa.index = ...); indexes: %',
                coalesce(_known, 'none') USING ERRCODE = 'invalid_parameter_value',
                HINT = 'or make one the default: kgqa --index NAME sql install --default';
        END IF;
        RETURN _known;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM kgqa.indexes i WHERE i.name = _name) THEN
        RAISE EXCEPTION 'kgqa: no index named %; indexes: %', _name, coalesce(_known, 'none')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN _name;
END $fn$;

CREATE OR REPLACE FUNCTION kgqa.submit(question text, index_name text DEFAULT NULL,
                                       strategy text DEFAULT 'traversal', topic_entity text DEFAULT NULL,
                                       hubs integer DEFAULT NULL, paths_per_hub integer DEFAULT NULL,
                                       scoring text DEFAULT NULL, components boolean DEFAULT true,
                                       triple_filter boolean DEFAULT true, llm text DEFAULT 'offline')
RETURNS bigint LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    _id bigint;
BEGIN
    IF question IS NULL THEN
        RETURN NULL;  -- NULL in, NULL out (as kgqa_ask in DuckDB and Cypher)
    END IF;
    PERFORM kgqa.check_asker(current_user);
    IF btrim(question) = '' THEN
        RAISE EXCEPTION 'kgqa: question must be a non-empty text' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF strategy IS NULL OR strategy NOT IN ('traversal', 'direct') THEN
        RAISE EXCEPTION 'kgqa: strategy must be traversal or direct, got %', coalesce(strategy, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO kgqa.queue (index_name, question, options)
    VALUES (kgqa.resolve_index(index_name), question, jsonb_strip_nulls(jsonb_build_object(
        'strategy', strategy, 'topic_entity', topic_entity, 'hubs', hubs, 'paths_per_hub', paths_per_hub,
        'scoring', scoring, 'components', components, 'triple_filter', triple_filter, 'llm', llm)))
    RETURNING id INTO _id;
    PERFORM pg_notify('kgqa_queue', _id::text);
    RETURN _id;
END $fn$;

-- Whether a worker of the index has beaten its heart lately.
CREATE OR REPLACE FUNCTION kgqa.worker_alive(index_name text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    SELECT EXISTS (SELECT 1 FROM kgqa.workers w
                   WHERE w.index_name = worker_alive.index_name AND w.heartbeat_at > now() - interval '5 seconds');
$fn$;

-- The reply to question `id` (submitted in an earlier transaction) once a worker has answered it, or a
-- SQL error: 55000 no worker, 57014 timeout, the question's own failure. NULL id: NULL.
CREATE OR REPLACE FUNCTION kgqa.reply(id bigint, timeout_s double precision DEFAULT NULL) RETURNS jsonb
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    _q kgqa.queue%ROWTYPE;
    _deadline timestamptz := clock_timestamp() + make_interval(secs => coalesce(
        timeout_s, nullif(current_setting('kgqa.ask_timeout', true), '')::double precision, 60));
BEGIN
    IF reply.id IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM kgqa.check_asker(current_user);
    LOOP
        SELECT * INTO _q FROM kgqa.queue q WHERE q.id = reply.id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'kgqa: no question with id % (of this role)', reply.id
                USING ERRCODE = 'invalid_parameter_value';
        ELSIF _q.status = 'done' THEN
            RETURN _q.reply;
        ELSIF _q.status = 'failed' THEN
            RAISE EXCEPTION 'kgqa: %', _q.error USING ERRCODE = coalesce(_q.sqlstate, 'XX000');
        ELSIF NOT kgqa.worker_alive(_q.index_name) THEN
            RAISE EXCEPTION 'kgqa: no worker is running for index % (question % stays queued)', _q.index_name, reply.id
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'start one: kgqa --db <the graph> serve --store pgvector';
        ELSIF clock_timestamp() > _deadline THEN
            RAISE EXCEPTION 'kgqa: no answer to question % within the timeout (SET kgqa.ask_timeout)', reply.id
                USING ERRCODE = 'query_canceled';
        END IF;
        PERFORM pg_sleep(0.02);
    END LOOP;
END $fn$;

-- Waits for question `id`; one row: answer, result, sources, triples (no row for a NULL id).
CREATE OR REPLACE FUNCTION kgqa.wait(id bigint, timeout_s double precision DEFAULT NULL)
RETURNS TABLE (answer text, result jsonb, sources jsonb, triples text[])
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    _reply jsonb := kgqa.reply(wait.id, timeout_s);
BEGIN
    IF _reply IS NOT NULL THEN
        RETURN QUERY SELECT _reply ->> 'answer', _reply -> 'result', _reply -> 'sources',
            ARRAY(SELECT jsonb_array_elements_text(_reply -> 'triples'));
    END IF;
END $fn$;

-- `k` as a row limit, or 22023.
CREATE OR REPLACE FUNCTION kgqa.check_k(k integer) RETURNS integer
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF k IS NULL OR k < 1 OR k > 10000 THEN
        RAISE EXCEPTION 'kgqa: k must be an integer within [1, 10000], got %', coalesce(k::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN k;
END $fn$;

-- The supporting triples of question `id`, most relevant first: rank, triple (as kgqa_retrieve in
-- DuckDB and Cypher). At most the answer's own triples (50 unless max_triples was set).
CREATE OR REPLACE FUNCTION kgqa.retrieve(id bigint, k integer DEFAULT 10)
RETURNS TABLE (rank integer, triple text)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    _k integer := kgqa.check_k(k);
    _reply jsonb := kgqa.reply(retrieve.id);
BEGIN
    RETURN QUERY SELECT t.ord::integer, t.value
        FROM jsonb_array_elements_text(coalesce(_reply -> 'triples', '[]')) WITH ORDINALITY AS t(value, ord)
        WHERE t.ord <= _k ORDER BY t.ord;
END $fn$;

-- The ranked hubs of question `id`: rank, hub_id, label, score, cited (as kgqa_hubs in DuckDB and Cypher).
CREATE OR REPLACE FUNCTION kgqa.hubs(id bigint, k integer DEFAULT 5)
RETURNS TABLE (rank integer, hub_id text, label text, score double precision, cited boolean)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    _k integer := kgqa.check_k(k);
    _reply jsonb := kgqa.reply(hubs.id);
BEGIN
    RETURN QUERY SELECT h.ord::integer, coalesce(h.value ->> 'hub_id', h.value ->> 'id'), h.value ->> 'label',
                        (h.value ->> 'score')::double precision, coalesce((h.value ->> 'cited')::boolean, false)
        FROM jsonb_array_elements(coalesce(_reply -> 'hubs', '[]')) WITH ORDINALITY AS h(value, ord)
        WHERE h.ord <= _k ORDER BY h.ord;
END $fn$;

-- Refuses a CALL inside a transaction block (where kgqa.ask cannot COMMIT its question for a worker to see)
-- with 2D000 and a message that names the fix. The probe: a COMMIT inside an exception block always fails
-- and is caught; Postgres says "invalid transaction termination" only where no COMMIT is allowed at all
-- (any other text, e.g. "cannot commit while a subtransaction is active", means autocommit).
CREATE OR REPLACE PROCEDURE kgqa.check_autocommit()
LANGUAGE plpgsql AS $fn$
DECLARE
    _why text;
BEGIN
    BEGIN
        COMMIT;
    EXCEPTION WHEN invalid_transaction_termination THEN
        GET STACKED DIAGNOSTICS _why = MESSAGE_TEXT;
    END;
    IF _why = 'invalid transaction termination' THEN
        RAISE EXCEPTION 'kgqa: CALL kgqa.ask cannot run inside a transaction block: use SELECT kgqa.submit(...) '
                        'then SELECT * FROM kgqa.wait(id) in a later transaction, or run the CALL in autocommit'
            USING ERRCODE = 'invalid_transaction_termination',
                  HINT = 'psycopg: connect(..., autocommit=True); SQLAlchemy: '
                         'create_engine(..., isolation_level="AUTOCOMMIT"); JDBC: setAutoCommit(true)';
    END IF;
END $fn$;

-- The COMMIT of CALL kgqa.ask (after kgqa.check_autocommit; should the probe not tell, its name in the
-- error's CONTEXT line still says what to do).
CREATE OR REPLACE PROCEDURE kgqa."CALL kgqa.ask needs autocommit, else submit + wait"()
LANGUAGE plpgsql AS $fn$
BEGIN
    COMMIT;
END $fn$;

-- Submits `question`, commits (so a worker sees it) and waits until it is answered; `id` is its id.
CREATE OR REPLACE PROCEDURE kgqa.ask_id(question text, index_name text, strategy text, topic_entity text,
                                        hubs integer, paths_per_hub integer, scoring text, components boolean,
                                        triple_filter boolean, INOUT id bigint DEFAULT NULL,
                                        llm text DEFAULT 'offline')
LANGUAGE plpgsql AS $fn$
DECLARE
    _index text := kgqa.resolve_index(index_name);
BEGIN
    PERFORM kgqa.check_asker(current_user);
    CALL kgqa.check_autocommit();
    IF NOT kgqa.worker_alive(_index) THEN
        RAISE EXCEPTION 'kgqa: no worker is running for index %', _index
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'start one: kgqa --db <the graph> serve --store pgvector';
    END IF;
    id := kgqa.submit(question, _index, strategy, topic_entity, hubs, paths_per_hub, scoring, components,
                      triple_filter, llm);
    CALL kgqa."CALL kgqa.ask needs autocommit, else submit + wait"();
    PERFORM kgqa.reply(id);
END $fn$;

-- Text in, answer out: commits the question (so a worker sees it), waits, returns one row.
-- CALL it outside a transaction block (a procedure may COMMIT only there); inside one, use submit + wait.
CREATE OR REPLACE PROCEDURE kgqa.ask(question text, index_name text DEFAULT NULL,
                                     strategy text DEFAULT 'traversal', topic_entity text DEFAULT NULL,
                                     hubs integer DEFAULT NULL, paths_per_hub integer DEFAULT NULL,
                                     scoring text DEFAULT NULL, components boolean DEFAULT true,
                                     triple_filter boolean DEFAULT true, llm text DEFAULT 'offline',
                                     INOUT answer text DEFAULT NULL, INOUT result jsonb DEFAULT NULL,
                                     INOUT sources jsonb DEFAULT NULL, INOUT triples text[] DEFAULT NULL)
LANGUAGE plpgsql AS $fn$
DECLARE
    _index text := kgqa.resolve_index(index_name);
    _id bigint;
BEGIN
    IF question IS NULL THEN
        RETURN;  -- NULL in, NULL out
    END IF;
    CALL kgqa.ask_id(question, _index, strategy, topic_entity, hubs, paths_per_hub, scoring, components,
                     triple_filter, _id, llm);
    SELECT w.answer, w.result, w.sources, w.triples INTO answer, result, sources, triples FROM kgqa.wait(_id) w;
END $fn$;

-- Text in, rows out, in one CALL: submits and commits the question, waits, and returns its id (for
-- SELECT * FROM kgqa.retrieve(id, k) / kgqa.hubs(id, k), which give one row per triple or hub) and
-- the top k as an array. Same options as kgqa.ask.
CREATE OR REPLACE PROCEDURE kgqa.retrieve(question text, k integer DEFAULT 10, index_name text DEFAULT NULL,
                                          strategy text DEFAULT 'traversal', topic_entity text DEFAULT NULL,
                                          hubs integer DEFAULT NULL, paths_per_hub integer DEFAULT NULL,
                                          scoring text DEFAULT NULL, components boolean DEFAULT true,
                                          triple_filter boolean DEFAULT true,
                                          INOUT id bigint DEFAULT NULL, INOUT triples text[] DEFAULT NULL)
LANGUAGE plpgsql AS $fn$
DECLARE
    _k integer := kgqa.check_k(k);
BEGIN
    IF question IS NULL THEN
        RETURN;  -- NULL in, NULL out
    END IF;
    CALL kgqa.ask_id(question, index_name, strategy, topic_entity, hubs, paths_per_hub, scoring, components,
                     triple_filter, id);
    triples := ARRAY(SELECT r.triple FROM kgqa.retrieve(id, _k) r ORDER BY r.rank);
END $fn$;

CREATE OR REPLACE PROCEDURE kgqa.hubs(question text, k integer DEFAULT 5, index_name text DEFAULT NULL,
                                      strategy text DEFAULT 'traversal', topic_entity text DEFAULT NULL,
                                      hubs integer DEFAULT NULL, paths_per_hub integer DEFAULT NULL,
                                      scoring text DEFAULT NULL, components boolean DEFAULT true,
                                      triple_filter boolean DEFAULT true,
                                      INOUT id bigint DEFAULT NULL, INOUT ranked jsonb DEFAULT NULL)
LANGUAGE plpgsql AS $fn$
DECLARE
    _k integer := kgqa.check_k(k);
BEGIN
    IF question IS NULL THEN
        RETURN;
    END IF;
    CALL kgqa.ask_id(question, index_name, strategy, topic_entity, hubs, paths_per_hub, scoring, components,
                     triple_filter, id);
    ranked := (SELECT jsonb_agg(to_jsonb(h) ORDER BY h.rank) FROM kgqa.hubs(id, _k) h);
END $fn$;
