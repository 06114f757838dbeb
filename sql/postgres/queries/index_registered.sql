-- Whether an index of this name is in the registry (a queue worker stops when its index was dropped).
-- params: name text   returns: exists
SELECT EXISTS (SELECT 1 FROM kgqa.indexes i WHERE i.name = %(name)s::text);
