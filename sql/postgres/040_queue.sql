-- Text in, answer out, inside Postgres with no Python in it: questions go into kgqa.queue, the
-- `kgqa serve` processes of the index (workers) take them with FOR UPDATE SKIP LOCKED, answer them
-- with the library and write the reply back. A worker keeps a heartbeat in kgqa.workers and a lease
-- on the question it works on; a question whose lease ran out (its worker died) is taken again.
--   SELECT kgqa.submit('Which papers ...?');            an id at once (works inside a transaction)
--   CALL kgqa.ask('Which papers ...?');                  waits: answer, result, sources, triples
--   SELECT * FROM kgqa.wait(42);                         waits for a question submitted before
-- Errors are SQL errors: 55000 no worker runs for the index, 57014 no answer within the timeout
-- (setting kgqa.ask_timeout, seconds, default 60), 22023 bad arguments, the library's own
-- failure (e.g. no topic entity found) as 22023 with its message. A NULL question gives NULL.

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
    finished_at  timestamptz
);
CREATE INDEX IF NOT EXISTS queue_open ON kgqa.queue (index_name, id) WHERE status IN ('queued', 'running');

CREATE TABLE IF NOT EXISTS kgqa.workers (
    worker_id    text PRIMARY KEY,                -- host:pid:n
    index_name   text NOT NULL,
    pid          integer NOT NULL,
    started_at   timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now()
);

-- The index a call means: the argument, else the setting kgqa.index, else the only index there is.
CREATE OR REPLACE FUNCTION kgqa.resolve_index(index_name text) RETURNS text
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    _name text := coalesce(index_name, nullif(current_setting('kgqa.index', true), ''));
    _known text;
BEGIN
    SELECT string_agg(i.name, ', ' ORDER BY i.name) INTO _known FROM kgqa.indexes i;
    IF _name IS NULL THEN
        IF _known IS NULL OR position(',' IN _known) > 0 THEN
            RAISE EXCEPTION 'kgqa: name the index (index_name => ..., or SET kgqa.index = ...); indexes: %',
                coalesce(_known, 'none') USING ERRCODE = 'invalid_parameter_value';
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
LANGUAGE sql STABLE AS $fn$
    SELECT EXISTS (SELECT 1 FROM kgqa.workers w
                   WHERE w.index_name = worker_alive.index_name AND w.heartbeat_at > now() - interval '5 seconds');
$fn$;

-- Waits for question `id` (submitted in an earlier transaction); one row, or a SQL error.
CREATE OR REPLACE FUNCTION kgqa.wait(id bigint, timeout_s double precision DEFAULT NULL)
RETURNS TABLE (answer text, result jsonb, sources jsonb, triples text[])
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    _q kgqa.queue%ROWTYPE;
    _deadline timestamptz := clock_timestamp() + make_interval(secs => coalesce(
        timeout_s, nullif(current_setting('kgqa.ask_timeout', true), '')::double precision, 60));
BEGIN
    IF wait.id IS NULL THEN
        RETURN;  -- no question, no row
    END IF;
    LOOP
        SELECT * INTO _q FROM kgqa.queue q WHERE q.id = wait.id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'kgqa: no question with id %', wait.id USING ERRCODE = 'invalid_parameter_value';
        ELSIF _q.status = 'done' THEN
            RETURN QUERY SELECT _q.reply ->> 'answer', _q.reply -> 'result', _q.reply -> 'sources',
                ARRAY(SELECT jsonb_array_elements_text(_q.reply -> 'triples'));
            RETURN;
        ELSIF _q.status = 'failed' THEN
            RAISE EXCEPTION 'kgqa: %', _q.error USING ERRCODE = coalesce(_q.sqlstate, 'XX000');
        ELSIF NOT kgqa.worker_alive(_q.index_name) THEN
            RAISE EXCEPTION 'kgqa: no worker is running for index % (question % stays queued)', _q.index_name, wait.id
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'start one: kgqa --db <the graph> serve --store pgvector';
        ELSIF clock_timestamp() > _deadline THEN
            RAISE EXCEPTION 'kgqa: no answer to question % within the timeout (SET kgqa.ask_timeout)', wait.id
                USING ERRCODE = 'query_canceled';
        END IF;
        PERFORM pg_sleep(0.02);
    END LOOP;
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
    IF NOT kgqa.worker_alive(_index) THEN
        RAISE EXCEPTION 'kgqa: no worker is running for index %', _index
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'start one: kgqa --db <the graph> serve --store pgvector';
    END IF;
    _id := kgqa.submit(question, _index, strategy, topic_entity, hubs, paths_per_hub, scoring, components,
                       triple_filter, llm);
    COMMIT;
    SELECT w.answer, w.result, w.sources, w.triples INTO answer, result, sources, triples FROM kgqa.wait(_id) w;
END $fn$;
