-- Whether any entity is marked dirty (a cheap look before taking the marks).
-- returns: exists
SELECT EXISTS (SELECT 1 FROM kgqa.dirty_entities);
