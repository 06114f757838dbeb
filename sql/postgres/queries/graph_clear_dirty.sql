-- Delete these dirty marks (their hubs were rebuilt).
-- params: ids text[]
DELETE FROM kgqa.dirty_entities WHERE entity_id = ANY(%(ids)s::text[]);
