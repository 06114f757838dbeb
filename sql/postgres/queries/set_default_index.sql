-- Make one index the default of unqualified calls (kgqa.ask without index_name); the others not.
-- params: name text
UPDATE kgqa.indexes SET is_default = (name = %(name)s::text);
