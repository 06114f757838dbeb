-- The most frequent entity types.
-- params: lim int   returns: type, n
SELECT ty, count(*) AS n FROM kgqa.entities, unnest(types) AS ty GROUP BY ty ORDER BY n DESC, ty COLLATE "C" LIMIT %(lim)s::int;
