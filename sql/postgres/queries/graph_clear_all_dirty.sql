-- Delete every dirty mark (a load before any index exists: nothing to refresh).
DELETE FROM kgqa.dirty_entities;
