-- The latest logged answers, newest first (JSON columns as text).
-- params: limit int   returns: id, asked_at, question, answer, sources, triples, strategy, mode, seconds
SELECT id, asked_at, question, answer, sources::text, triples::text, strategy, mode,
       (timings ->> 'total')::double precision
FROM kgqa.answers
ORDER BY id DESC
LIMIT %(limit)s::integer;
