-- Delete hubs; their paths and HubVectors go with them (ON DELETE CASCADE).
-- params: ids text[]
DELETE FROM kgqa.hubs WHERE id = ANY(%(ids)s::text[]);
