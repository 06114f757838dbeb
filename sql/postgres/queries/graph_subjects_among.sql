-- Which of the given entities are the subject of some triple.
-- params: ids text[]   returns: id
SELECT DISTINCT t.subject FROM kgqa.triples t WHERE t.subject = ANY(%(ids)s::text[]);
