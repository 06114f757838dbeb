-- The latest logged answers, newest first (JSON columns as text).
-- params: limit int, index_name text   returns: id, asked_at, question, answer, sources, triples, strategy, mode, seconds
SELECT id, asked_at, question, answer, sources::text, triples::text, strategy, mode,
       (timings ->> 'total')::double precision
FROM kgqa.answers
WHERE index_name = %(index_name)s::text
ORDER BY id DESC
LIMIT %(limit)s::integer;
