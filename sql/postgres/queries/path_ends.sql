-- The entity each stored path of the given hubs ends at (the last triple's object id).
-- params: ids text[]   returns: hub_id, end_id
SELECT DISTINCT hub_id, triples -> -1 ->> 3
FROM kgqa.hub_paths
WHERE hub_id = ANY(%(ids)s::text[]);
