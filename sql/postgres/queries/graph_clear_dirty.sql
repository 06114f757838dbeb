-- Delete the dirty marks taken (their hubs were rebuilt).
-- params: seqs int8[]
DELETE FROM kgqa.dirty_entities WHERE seq = ANY(%(seqs)s::int8[]);
