-- Resources without a type, and the number of distinct types (explore/untyped_count.cypher's twin).
-- returns: untyped resources, distinct types
SELECT (SELECT count(*) FROM kgqa.entities WHERE NOT is_literal AND coalesce(cardinality(types), 0) = 0),
       (SELECT count(DISTINCT ty) FROM kgqa.entities, unnest(types) AS ty);
