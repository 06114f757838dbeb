-- The answers log as people read it: one row per question asked of this index with the pgvector store.
CREATE OR REPLACE VIEW kgqa.past_questions AS
SELECT a.id, a.asked_at, a.question, a.answer,
       (SELECT string_agg(s ->> 'hub_id', ', ' ORDER BY (s ->> 'n')::integer)
        FROM jsonb_array_elements(a.sources) AS s) AS sources,
       jsonb_array_length(a.triples) AS triples,
       a.strategy, a.mode,
       round((a.timings ->> 'total')::numeric, 3) AS seconds,
       coalesce((a.llm_tokens ->> 'total_tokens')::bigint, 0) AS llm_tokens
FROM kgqa.answers a
WHERE a.index_name = (SELECT m.value #>> '{}' FROM kgqa.meta m WHERE m.key = 'index_name');
