-- The distinct subjects of triples into `ids`, with types, literal flag and out-degree (one step backward).
-- params: ids text[]   returns: id, types, is_literal, out_degree
SELECT s.id, s.types, s.is_literal, (SELECT count(*) FROM kgqa.triples t2 WHERE t2.subject = s.id)
FROM kgqa.entities s
WHERE s.id IN (SELECT t.subject FROM kgqa.triples t WHERE t.object = ANY(%(ids)s::text[]));
